import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

// `quiver call` imports the MCP bridge only when the configuration names a server, and the runtime
// reads text-search at the first search: what a person sees must not depend on either.
describe('quiver call and search with the bridge and text search loaded on demand', () => {
  const dirs = tempDirs();
  afterEach(dirs.cleanup);

  it('still reports a broken mcpServers entry on a call of a built-in tool', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'notes.txt'), 'first line\n');
    write(path.join(ws, 'quiver.yaml'), 'mcpServers:\n  broken:\n    comand: node\n');
    const read = await quiver(['--trust-project', 'call', 'read_file', '-a', '{"path":"notes.txt"}'], {
      cwd: ws,
    });
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('1\tfirst line');
    expect(read.stderr).toContain(
      'MCP server "broken" is not started: mcpServers.broken.comand: unknown key.',
    );
  });

  it('calls a built-in tool without mcpServers and prints no warning', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'notes.txt'), 'first line\n');
    const read = await quiver(['call', 'read_file', '-a', '{"path":"notes.txt"}'], { cwd: ws });
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('1\tfirst line');
    expect(read.stderr).toBe('');
  });

  it('ranks tools in a process whose first use of the tool search is a search', async () => {
    const ws = dirs.make();
    const search = await quiver(['search', 'read a text file with numbered lines', '--json', '-l', '3'], {
      cwd: ws,
    });
    expect(search.code).toBe(0);
    const found = JSON.parse(search.stdout) as { tools: { name: string }[] };
    expect(found.tools.map((tool) => tool.name)).toContain('read_file');
  });
});
