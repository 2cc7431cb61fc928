import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createQuiver, FIRST_PARTY_PLUGIN_IDS, type Quiver } from '../src/index.js';

describe('createQuiver', () => {
  const open: Quiver[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const quiver of open.splice(0)) await quiver.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const workspace = () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-wiring-')));
    dirs.push(dir);
    return dir;
  };

  it('loads every first-party extension with the embedded default personality', async () => {
    const ws = workspace();
    const quiver = await createQuiver({ workspace: ws, discoverConfig: false });
    open.push(quiver);
    expect(quiver.host.plugins().failed).toEqual([]);
    expect(
      quiver.host
        .plugins()
        .loaded.map((p) => p.id)
        .sort(),
    ).toEqual([...FIRST_PARTY_PLUGIN_IDS, 'tools-repl'].sort());
    const names = quiver
      .createSession()
      .pool()
      .definitions.map((d) => d.name);
    expect(names).toEqual(
      expect.arrayContaining(['terminal', 'read_file', 'grep_search', 'kanban_create', 'memory_save']),
    );
    // tools-repl is loaded for personalities that opt in; the default one does not.
    expect(names).not.toContain('repl');
    expect(quiver.host.dataDir).toBe(path.join(ws, '.quiver'));
  });

  it('runs a read through the default personality inside the workspace', async () => {
    const ws = workspace();
    writeFileSync(path.join(ws, 'notes.txt'), 'first\nsecond\n');
    const quiver = await createQuiver({ workspace: ws, discoverConfig: false });
    open.push(quiver);
    const [result] = await quiver
      .createSession()
      .execute([{ name: 'read_file', args: { path: 'notes.txt' } }]);
    expect(result?.ok).toBe(true);
    expect(result?.ok && result.value).toContain('second');
  });

  it('denies a shell command the default personality does not allow, naming the rule that would', async () => {
    const ws = workspace();
    const quiver = await createQuiver({ workspace: ws, discoverConfig: false });
    open.push(quiver);
    const [result] = await quiver
      .createSession()
      .execute([{ name: 'terminal', args: { command: 'rm -rf build' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(!result?.ok && result?.error).toContain('terminal(');
  });

  it('keeps secrets out of shell commands unless the personality grants them', async () => {
    const ws = workspace();
    writeFileSync(path.join(ws, 'quiver.yaml'), 'defaultPersonality: granted\n');
    const personalities = path.join(ws, 'personalities');
    (await import('node:fs')).mkdirSync(personalities);
    writeFileSync(
      path.join(personalities, 'granted.yaml'),
      'id: granted\nplugins: [tools-terminal]\nsandbox: off\npermissions:\n  allow: [terminal]\nsecrets:\n  terminal: [DEPLOY_TOKEN]\n',
    );
    writeFileSync(
      path.join(personalities, 'plain.yaml'),
      'id: plain\nplugins: [tools-terminal]\nsandbox: off\npermissions:\n  allow: [terminal]\n',
    );
    const env = { ...process.env, DEPLOY_TOKEN: 'granted-value', OTHER_API_KEY: 'never-passed' };
    const quiver = await createQuiver({ workspace: ws, env, trustProject: true });
    open.push(quiver);
    // `env` prints the environment the command got (an expansion would not be allowed: it is not provable).
    const command = { name: 'terminal', args: { command: 'env' } };
    const [granted] = await quiver.createSession().execute([command]);
    const [plain] = await quiver.createSession({ personality: 'plain' }).execute([command]);
    expect(granted?.ok && granted.value).toContain('DEPLOY_TOKEN=granted-value');
    expect(granted?.ok && granted.value).not.toContain('OTHER_API_KEY');
    expect(plain?.ok && plain.value).toContain('PATH=');
    expect(plain?.ok && plain.value).not.toContain('DEPLOY_TOKEN');
  });

  it('registers nothing and adds no global state when the extensions are imported', async () => {
    const before = Object.keys(globalThis).sort();
    await import('@quiver/tools-code');
    await import('@quiver/tools-terminal');
    await import('@quiver/tools-kanban');
    await import('@quiver/tools-memory');
    await import('@quiver/mcp-bridge');
    expect(Object.keys(globalThis).sort()).toEqual(before);
    const ws = workspace();
    const bare = await (await import('@quiver/plugin-host')).QuiverHost.create({
      workspace: ws,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    expect(bare.registry.list()).toEqual([]);
    await bare.close();
  });
});
