import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect } from 'vitest';
import { BIN, REPO, tempDirs } from './helpers.js';
import { serveEnv } from './serve-fixtures.js';

const dirs = tempDirs('quiver-python-client-');
afterEach(() => dirs.cleanup());

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The first shell block of a README section, as a reader copies it. */
function readmeCommand(readme: string, heading: string): string {
  const section = readme.slice(readme.indexOf(heading));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`no sh block under ${heading}`);
  return block.trim();
}

describe('clients/python', () => {
  itWithSystemTools(['python3'])(
    'passes its own tests against a real quiver rpc (python3 -m unittest)',
    async () => {
      const result = await run('python3', ['-m', 'unittest', 'discover', '-s', 'clients/python/tests'], {
        cwd: REPO,
        env: { ...serveEnv(), QUIVER_COMMAND: JSON.stringify([process.execPath, BIN]) },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/Ran 3 tests/);
    },
    90_000,
  );

  itWithSystemTools(['python3'])(
    'runs its example exactly as the README says',
    async () => {
      const command = readmeCommand(
        readFileSync(path.join(REPO, 'clients/python/README.md'), 'utf8'),
        '## Run the example',
      );
      const result = await run('bash', ['-c', command], {
        cwd: REPO,
        // `node` as the reader's PATH finds it; mktemp's directory inside this test's own.
        env: {
          ...serveEnv(),
          PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
          TMPDIR: dirs.make(),
        },
      });
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout) as {
        tools: string[];
        results: Array<{ ok: boolean; value?: string }>;
      };
      expect(summary.tools).toEqual(expect.arrayContaining(['list_dir', 'lookup_weather']));
      expect(summary.results[0]).toMatchObject({ ok: true });
      expect(summary.results[1]).toMatchObject({ ok: true, value: 'Sunny in Lisbon' });
    },
    60_000,
  );

  itWithSystemTools(['pyproject-build'])(
    'builds an sdist and a wheel that hold the package (python3-build, no network)',
    async () => {
      const out = dirs.make();
      const result = await run('pyproject-build', ['--no-isolation', '--outdir', out, 'clients/python'], {
        cwd: REPO,
        env: serveEnv(),
      });
      expect(result.code, result.stderr).toBe(0);
      const built = readdirSync(out).sort();
      expect(built).toEqual(['quiver-client-0.1.0.tar.gz', 'quiver_client-0.1.0-py3-none-any.whl']);
      const listing = await run('python3', ['-m', 'zipfile', '-l', path.join(out, built[1] as string)], {
        cwd: REPO,
        env: serveEnv(),
      });
      expect(listing.stdout).toContain('quiver_client/client.py');
      expect(listing.stdout).toContain('quiver_client/py.typed');
    },
    120_000,
  );
});
