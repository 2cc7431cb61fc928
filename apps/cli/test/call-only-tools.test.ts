import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependency, quiver, tempDirs, write } from './helpers.js';

// `quiver call <tool>` loads only the first-party plugins that declare the tool (createQuiver's
// onlyTools, see docs/concepts.md); what the others declare keeps rules and names written for
// their tools reading as when every plugin loads. A built-in's alias (Read) is declared with its
// tool, so `Read` and `read_file` load the same plugins and must be judged the same.
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

/** The `session.warning` events a `quiver call --events` printed on stderr. */
function warnings(stderr: string): Array<{ code: string; message: string }> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; code: string; message: string })
    .filter((event) => event.type === 'session.warning')
    .map(({ code, message }) => ({ code, message }));
}

describe('quiver call with the plugins it leaves out', () => {
  const dirs = tempDirs();
  afterEach(dirs.cleanup);

  it('warns about no rule that names a tool, alias or plugin left out, and still about a name nothing has', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'notes.txt'), 'notes\n');
    write(
      path.join(ws, 'personalities/default.yaml'),
      [
        'plugins: [tools-code, tools-terminal, tools-kanban, tools-memory]',
        'permissions:',
        '  allow: [read_file, kanban_list, "memory_*", "terminal_start(git status)", tools-repl]',
        '  deny: [kanban_archive, tools-memory, "Read(secret.txt)", Grep, no_such_tool]',
        '',
      ].join('\n'),
    );
    const unknown = {
      code: 'unknown_tool_name',
      message:
        'permissions names "no_such_tool", which matches no tool, alias, plugin or configured MCP server.',
    };
    // read_file leaves out the terminal, kanban, memory and REPL plugins; kanban_list the code plugin, whose aliases the rules use.
    for (const [tool, args] of [
      ['read_file', '{"path":"notes.txt"}'],
      ['kanban_list', '{}'],
    ] as const) {
      const run = await quiver(['--trust-project', 'call', tool, '-a', args, '--events'], { cwd: ws });
      expect(run.code, run.stderr).toBe(0);
      expect(
        warnings(run.stderr).filter((warning) => warning.code !== 'sandbox_unavailable'),
        tool,
      ).toEqual([unknown]);
    }
  });

  it("reads a deny written for a left-out plugin's tool by that tool's kind, as when it loads", async () => {
    const ws = dirs.make();
    write(path.join(ws, 'notes.txt'), 'notes\n');
    write(path.join(ws, 'other.txt'), 'other\n');
    write(
      path.join(ws, 'personalities/default.yaml'),
      [
        'plugins: [tools-code, tools-terminal]',
        'permissions:',
        '  allow: [read_file]',
        '  deny: ["terminal_write(notes.txt)", "read_file(secret.txt)", "nothing_here(other.txt)"]',
        '',
      ].join('\n'),
    );
    const read = (file: string) =>
      quiver(['--trust-project', 'call', 'read_file', '-a', JSON.stringify({ path: file })], { cwd: ws });
    // terminal_write is a shell tool: its rule is a command rule, so the file is only withheld as the
    // same file as the rule's operand. A rule for a tool of no known kind is a path deny of every read.
    const shell = await read('notes.txt');
    expect(shell.code).toBe(1);
    expect(shell.stderr).toContain(
      'notes.txt is withheld: it is the same file as one the read deny "terminal_write(notes.txt)" covers',
    );
    const unknownKind = await read('other.txt');
    expect(unknownKind.code).toBe(1);
    expect(unknownKind.stderr).toContain('"other.txt" denied by rule "nothing_here(other.txt)"');
    const denied = await read('secret.txt');
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('"secret.txt" denied by rule "read_file(secret.txt)"');
  });

  it('loads a third-party plugin that clashes with or depends on a left-out plugin as when that plugin loads', async () => {
    const ws = dirs.make();
    const plugin = (name: string, body: string) => {
      const dir = path.join(ws, name);
      linkDependency(dir, 'zod');
      write(
        path.join(dir, 'package.json'),
        JSON.stringify({ name, type: 'module', quiver: { plugin: './plugin.js' } }),
      );
      write(
        path.join(dir, 'plugin.js'),
        `import { z } from 'zod';
export default { id: '${name}', apiVersion: 1, version: '1.0.0', ${body} };
`,
      );
    };
    const tool = (name: string) =>
      `ctx.registerTool({ name: '${name}', description: 'A tool.', input: z.object({}), capabilities: {}, execute: () => ({ ok: true, value: 'from ${name}' }) });`;
    plugin('acme-clash', `register(ctx) { ${tool('kanban_list')} }`);
    plugin('acme-needs-memory', `dependsOn: ['tools-memory'], register(ctx) { ${tool('acme_echo')} }`);
    write(path.join(ws, 'quiver.yaml'), 'plugins:\n  - ./acme-clash\n  - ./acme-needs-memory\n');
    write(
      path.join(ws, 'personalities/default.yaml'),
      'plugins: [acme-clash, acme-needs-memory, tools-code]\npermissions:\n  allow: [read_file, acme_echo]\n',
    );
    write(path.join(ws, 'notes.txt'), 'notes\n');
    const call = await quiver(['--trust-project', 'call', 'read_file', '-a', '{"path":"notes.txt"}'], {
      cwd: ws,
    });
    expect(call.stdout).toContain('notes');
    expect(call.code).toBe(0);
    expect(call.stderr).toContain(
      'plugin acme-clash disabled: Plugin "acme-clash" registers tool "kanban_list", which plugin "tools-kanban" already registers.',
    );
    expect(call.stderr).not.toContain('acme-needs-memory');
  });
});
