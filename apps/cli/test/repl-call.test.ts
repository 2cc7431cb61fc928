import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingServerYaml, quiver, tempDirs, write } from './helpers.js';
import { connectStdio, textOf } from './serve-fixtures.js';

const dirs = tempDirs('quiver-repl-cli-');

function scriptedWorkspace(): string {
  const dir = dirs.make();
  write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: scripted\n');
  write(
    path.join(dir, 'personalities/scripted.yaml'),
    'id: scripted\nplugins: [tools-code, tools-repl]\nrepl: true\npermissions:\n  allow: [repl, read_file, list_dir]\n  deny: ["read_file(private/**)"]\n',
  );
  write(path.join(dir, 'notes/a.txt'), 'alpha\nbeta\n');
  write(path.join(dir, 'notes/b.txt'), 'beta\ngamma\n');
  write(path.join(dir, 'private/key.txt'), 'sk-test-1234\n');
  return dir;
}

const COUNT_BETA = `let hits = 0;
for (const name of ['a.txt', 'b.txt']) {
  const { text } = await tools.read_file({ path: 'notes/' + name });
  hits += text.split('\\n').filter((line) => line.endsWith('beta')).length;
}
let refused = '';
try { await tools.read_file({ path: 'private/key.txt' }) } catch (error) { refused = error.message }
return { hits, refused };`;

describe('the repl tool from the CLI and through quiver serve', () => {
  afterEach(() => dirs.cleanup());

  it('runs a script with quiver call, and explains where the wrapped tools went', async () => {
    const dir = scriptedWorkspace();
    const called = await quiver(
      ['--trust-project', 'call', 'repl', '--args', JSON.stringify({ code: COUNT_BETA })],
      {
        cwd: dir,
      },
    );
    expect(called.code, called.stderr).toBe(0);
    const answer = JSON.parse(called.stdout.trim()) as { hits: number; refused: string };
    expect(answer.hits).toBe(2);
    expect(answer.refused).toMatch(/not_permitted.*private/);
    expect(called.stdout).not.toContain('sk-test-1234');
    const explained = await quiver(['--trust-project', 'tools', '--explain', 'read_file'], { cwd: dir });
    expect(explained.stdout).toContain('reachable inside the repl tool');
  });

  it('lists only the repl through quiver serve, and runs its scripts for an MCP client', async () => {
    const dir = scriptedWorkspace();
    const { client } = await connectStdio(dir);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('repl');
      expect(names).not.toContain('read_file');
      const result = await client.callTool({ name: 'repl', arguments: { code: COUNT_BETA } });
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(textOf(result))).toMatchObject({ hits: 2 });
    } finally {
      await client.close();
    }
  });

  it("calls an MCP server's tools from a script run with quiver call", async () => {
    const dir = dirs.make();
    write(
      path.join(dir, 'quiver.yaml'),
      `mcpServers:\n${everythingServerYaml()}\ndefaultPersonality: scripted\n`,
    );
    write(
      path.join(dir, 'personalities/scripted.yaml'),
      'id: scripted\nplugins: [mcp-bridge, tools-repl]\nmcpServers:\n  everything: {}\npermissions:\n  allow: [repl, mcp__everything]\n',
    );
    const code = `const sum = await tools['mcp__everything__get-sum']({ a: 40, b: 2 });
const found = await tools.search('echo a message');
({ sum: typeof sum === 'string' ? sum : sum.text, declared: found.some((tool) => tool.declaration?.includes('mcp__everything__echo(args')) })`;
    const called = await quiver(['--trust-project', 'call', 'repl', '--args', JSON.stringify({ code })], {
      cwd: dir,
    });
    expect(called.code, called.stderr + called.stdout).toBe(0);
    const answer = JSON.parse(called.stdout.trim()) as { sum: string; declared: boolean };
    expect(answer.sum).toContain('42');
    expect(answer.declared).toBe(true);
  });
});
