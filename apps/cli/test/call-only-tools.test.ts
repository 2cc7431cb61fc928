import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependency, quiver, tempDirs, write } from './helpers.js';

// What `quiver call <tool>` must keep if it ever loads only the plugins that can provide the tool
// (createQuiver's onlyTools, not used by the CLI yet: see docs/concepts.md). A built-in's alias
// (Read) is declared by no plugin, so it would load every plugin: comparing the two shows the call
// is judged the same either way.
describe('quiver call of a first-party tool, by name and by alias', () => {
  const dirs = tempDirs();
  afterEach(dirs.cleanup);

  it('runs a tool of each first-party plugin in a real project', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'notes.txt'), 'first line\n');
    write(
      path.join(ws, 'personalities/default.yaml'),
      'plugins: [tools-code, tools-kanban, tools-memory, tools-terminal, tools-repl]\npermissions:\n  allow: [repl, read_file, kanban_list, memory_list, terminal_list]\n',
    );
    const read = await quiver(['--trust-project', 'call', 'read_file', '-a', '{"path":"notes.txt"}'], {
      cwd: ws,
    });
    expect(read.stdout).toContain('1\tfirst line');
    expect(read.code).toBe(0);
    const kanban = await quiver(['--trust-project', 'call', 'kanban_list'], { cwd: ws });
    expect(kanban.stdout).toContain('0 tickets');
    expect(kanban.code).toBe(0);
    const memory = await quiver(['--trust-project', 'call', 'memory_list'], { cwd: ws });
    expect(memory.stdout).toContain('0 memories');
    const terminal = await quiver(['--trust-project', 'call', 'terminal_list'], { cwd: ws });
    expect(terminal.code).toBe(0);
    const repl = await quiver(['--trust-project', 'call', 'repl', '-a', '{"code":"return 40 + 2"}'], {
      cwd: ws,
    });
    expect(repl.stdout.trim()).toBe('42');
    expect(repl.code).toBe(0);
  });

  it("applies the personality's deny, path and ask rules to the called tool as when every plugin loads", async () => {
    const ws = dirs.make();
    write(path.join(ws, 'secret.txt'), 'secret\n');
    write(path.join(ws, 'open.txt'), 'open\n');
    write(
      path.join(ws, 'personalities/default.yaml'),
      [
        'plugins: [tools-code, tools-terminal, tools-kanban]',
        'permissions:',
        '  deny: ["read_file(secret.txt)", "terminal(rm:*)", "kanban_archive"]',
        '  ask: ["read_file(open.txt)"]',
        '',
      ].join('\n'),
    );
    const run = (tool: string, file: string) =>
      quiver(['--trust-project', 'call', tool, '-a', JSON.stringify({ path: file })], { cwd: ws });
    const denied = await run('read_file', 'secret.txt');
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('"secret.txt" denied by rule "read_file(secret.txt)"');
    expect((await run('Read', 'secret.txt')).stderr).toBe(
      denied.stderr.replace('read_file failed', 'Read failed'),
    );
    const asked = await run('read_file', 'open.txt');
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('"open.txt" needs approval and this session is headless');
    const outside = await run('read_file', '../outside.txt');
    expect(outside.code).toBe(1);
    expect((await run('Read', '../outside.txt')).stderr).toBe(
      outside.stderr.replace('read_file failed', 'Read failed'),
    );
  });

  it("judges a third-party plugin's read_file as without the option: it clashes with the built-in", async () => {
    const ws = dirs.make();
    const dir = path.join(ws, 'clash');
    linkDependency(dir, 'zod');
    write(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'acme-clash', type: 'module', quiver: { plugin: './plugin.js' } }),
    );
    write(
      path.join(dir, 'plugin.js'),
      `import { z } from 'zod';
export default { id: 'acme-clash', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'read_file', description: 'Not the built-in.', input: z.object({ path: z.string() }),
    capabilities: {}, execute: () => ({ ok: true, value: 'from acme' }) });
} };
`,
    );
    write(path.join(ws, 'notes.txt'), 'built-in read\n');
    write(path.join(ws, 'quiver.yaml'), 'plugins:\n  - ./clash\n');
    write(
      path.join(ws, 'personalities/default.yaml'),
      'plugins: [acme-clash, tools-code]\npermissions:\n  allow: [read_file]\n',
    );
    const call = await quiver(['--trust-project', 'call', 'read_file', '-a', '{"path":"notes.txt"}'], {
      cwd: ws,
    });
    expect(call.stdout).toContain('built-in read');
    expect(call.stdout).not.toContain('from acme');
    expect(call.code).toBe(0);
  });

  it('says of an unknown tool what it says when every plugin loads', async () => {
    const ws = dirs.make();
    const unknown = await quiver(['call', 'kanban_nope'], { cwd: ws });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "kanban_nope failed [not_available] kanban_nope is not available in this session: no tool of that name is in the session's tool pool.",
    );
    // A declared tool whose plugin the personality leaves out still names the plugin to enable.
    write(path.join(ws, 'personalities/default.yaml'), 'plugins: [tools-code]\n');
    const disabled = await quiver(['--trust-project', 'call', 'terminal_list'], { cwd: ws });
    expect(disabled.code).toBe(1);
    expect(disabled.stderr).toContain('plugin "tools-terminal" is not enabled in the personality');
  });
});
