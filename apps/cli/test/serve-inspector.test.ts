import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers.js';
import { serveEnv, serveWorkspace } from './serve-fixtures.js';

const INSPECTOR = path.resolve(path.dirname(BIN), '../node_modules/.bin/mcp-inspector');

/** Runs the MCP Inspector's CLI mode against `quiver serve` over stdio. */
function inspect(
  dir: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      INSPECTOR,
      ['--cli', process.execPath, BIN, '--trust-project', 'serve', ...args],
      { cwd: dir, env: serveEnv(), timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('quiver serve with the MCP Inspector CLI', () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir, cleanup } = serveWorkspace());
  });
  afterAll(() => cleanup?.());

  it('lists the tools', async () => {
    const run = await inspect(dir, ['--method', 'tools/list']);
    expect(run.code).toBe(0);
    const names = (JSON.parse(run.stdout).tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['read_file', 'count_slowly']));
  });

  it('calls read_file with a --tool-arg', async () => {
    const run = await inspect(dir, [
      '--method',
      'tools/call',
      '--tool-name',
      'read_file',
      '--tool-arg',
      'path=README.md',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toContain('The quick brown fox.');
  });
});
