import 'reflect-metadata';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeTrustRecord } from '@quiver/plugin-host';
import { afterEach, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const open: Quiver[] = [];
const made: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((quiver) => quiver.close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** A cloned repository whose quiver.yaml adds a server that leaves a marker when it is started. */
function clone(options: { enable: boolean }): { workspace: string; marker: string; env: NodeJS.ProcessEnv } {
  const workspace = temp('quiver-clone-');
  const marker = path.join(temp('quiver-marker-'), 'started');
  const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
  writeFileSync(
    path.join(workspace, 'quiver.yaml'),
    `mcpServers:\n  marker:\n    command: ${JSON.stringify(process.execPath)}\n    args: ["-e", ${JSON.stringify(script)}]\n    connectTimeoutMs: 2000\ndefaultPersonality: dev\n`,
  );
  mkdirSync(path.join(workspace, 'personalities'));
  writeFileSync(
    path.join(workspace, 'personalities/dev.yaml'),
    `id: dev\nplugins: [mcp-bridge, tools-code]\n${options.enable ? 'mcpServers:\n  marker: true\n' : ''}permissions:\n  allow: [read_file, mcp__marker]\n`,
  );
  return { workspace, marker, env: { ...process.env, XDG_DATA_HOME: temp('quiver-xdg-') } };
}

async function start(options: Parameters<typeof createQuiver>[0]): Promise<Quiver> {
  const quiver = await createQuiver(options);
  open.push(quiver);
  return quiver;
}

describe('project configuration trust', () => {
  it('starts no server of a fresh clone and says how to trust it', async () => {
    const { workspace, marker, env } = clone({ enable: true });
    const quiver = await start({ workspace, env });
    expect(existsSync(marker)).toBe(false);
    expect(quiver.trust.state).toBe('untrusted');
    expect(quiver.trustNotice).toContain('mcpServers.marker: adds the MCP server');
    expect(quiver.trustNotice).toContain('quiver trust');
    expect(quiver.trustNotice).toContain('--trust-project');
    // The untrusted default personality is not used: the embedded default applies.
    expect(quiver.defaultPersonality).toBe('default');
  });

  it('starts the server once the project is trusted for the process', async () => {
    const { workspace, marker, env } = clone({ enable: true });
    const quiver = await start({ workspace, env, trustProject: true });
    // Lazily: when a session under the personality that enables it first needs it.
    expect(existsSync(marker)).toBe(false);
    await quiver.createSession().ready();
    expect(existsSync(marker)).toBe(true);
    expect(quiver.trust.state).toBe('trusted');
    expect(quiver.trustNotice).toBeUndefined();
  });

  it('starts the server once a person recorded trust, and records nothing inside the workspace', async () => {
    const { workspace, marker, env } = clone({ enable: true });
    const untrusted = await start({ workspace, env });
    writeTrustRecord(workspace, untrusted.trust.current, { env });
    await untrusted.close();
    const trusted = await start({ workspace, env });
    expect(trusted.trust).toMatchObject({ state: 'trusted', basis: 'record' });
    await trusted.createSession().ready();
    expect(existsSync(marker)).toBe(true);
  });

  it('never starts a trusted server that the selected personality does not enable', async () => {
    const { workspace, marker, env } = clone({ enable: false });
    const quiver = await start({ workspace, env, trustProject: true });
    const session = quiver.createSession();
    session.pool();
    await session.ready();
    expect(existsSync(marker)).toBe(false);
  });

  it('starts the server of another personality when a session under it first needs it', async () => {
    const { workspace, marker, env } = clone({ enable: false });
    writeFileSync(
      path.join(workspace, 'personalities/on.yaml'),
      'plugins: [mcp-bridge]\nmcpServers:\n  marker: true\n',
    );
    const quiver = await start({ workspace, env, trustProject: true });
    await quiver.createSession().ready();
    expect(existsSync(marker)).toBe(false);
    await quiver.createSession({ personality: 'on' }).ready();
    expect(existsSync(marker)).toBe(true);
  });

  it('keeps an allow rule a model added out of the next start until it is trusted again', async () => {
    const { workspace, env } = clone({ enable: false });
    const first = await start({ workspace, env });
    writeTrustRecord(workspace, first.trust.current, { env });
    await first.close();
    writeFileSync(
      path.join(workspace, 'personalities/dev.yaml'),
      'id: dev\nplugins: [mcp-bridge, tools-code]\npermissions:\n  allow: [read_file, write_file]\n  deny: [read_file(secret.txt)]\n',
    );
    writeFileSync(path.join(workspace, 'secret.txt'), 'hidden');
    const quiver = await start({ workspace, env });
    expect(quiver.trust.state).toBe('changed');
    expect(quiver.trustNotice).toContain('permissions.allow: adds "write_file"');
    const session = quiver.createSession();
    const [written, read] = await session.execute([
      { name: 'write_file', args: { path: 'notes.txt', content: 'x' } },
      { name: 'read_file', args: { path: 'secret.txt' } },
    ]);
    // The new allow rule waits for trust; the new deny rule applies at once.
    expect(written).toMatchObject({ ok: false });
    expect(existsSync(path.join(workspace, 'notes.txt'))).toBe(false);
    expect(read).toMatchObject({ ok: false, code: 'not_permitted' });
  });

  it('lists the configuration files it loaded for write protection', async () => {
    const { workspace, env } = clone({ enable: false });
    const quiver = await start({ workspace, env, trustProject: true });
    quiver.createSession();
    expect(quiver.loadedConfigurationPaths).toEqual(
      expect.arrayContaining([
        path.join(workspace, 'quiver.yaml'),
        path.join(workspace, 'personalities'),
        path.join(workspace, 'personalities/dev.yaml'),
        path.join(workspace, '.quiver'),
        path.join(env.XDG_DATA_HOME!, 'quiver', 'trust'),
      ]),
    );
  });
});
