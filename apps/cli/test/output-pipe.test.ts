import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, tempDirs } from './helpers.js';

const dirs = tempDirs('quiver-output-pipe-');
afterEach(dirs.cleanup);

/** `quiver ARGS | head -1`: the reader closes the pipe after the first line. */
function firstLineOnly(args: string[]): Promise<{ code: number | null; firstLine: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dirs.make(),
      env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: dirs.make() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let firstLine: string | undefined;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (firstLine !== undefined) return;
      firstLine = chunk.toString().split('\n')[0] ?? '';
      child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, firstLine: firstLine ?? '', stderr }));
  });
}

describe('output to a reader that stops early', () => {
  it('ends quietly with the exit code of the command, as `quiver tools | head -1` expects', async () => {
    const run = await firstLineOnly(['tools']);
    expect(run.firstLine.length).toBeGreaterThan(0);
    expect(run.stderr).not.toContain('EPIPE');
    expect(run.stderr).not.toContain('Unhandled');
    expect(run.code).toBe(0);
  });
});
