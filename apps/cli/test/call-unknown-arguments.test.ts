import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

describe('quiver call with an argument the tool does not take', () => {
  const dirs = tempDirs('quiver-cli-unknown-args-');
  afterEach(dirs.cleanup);

  it('exits 1 naming the misspelt key, the key it resembles and the keys the tool takes', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'notes.txt'), 'one\ntwo\nthree\n');
    const run = await quiver(['call', 'read_file', '--args', '{"path":"notes.txt","start_lin":3}'], {
      cwd: ws,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'read_file failed [input_invalid] Invalid arguments for "read_file": unknown argument "start_lin" (did you mean "start_line"?); "read_file" takes: path, start_line, end_line',
    );
  }, 150_000);

  it('still reads the lines asked for when the key is spelt right', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'notes.txt'), 'one\ntwo\nthree\n');
    const run = await quiver(['call', 'read_file', '--args', '{"path":"notes.txt","start_line":3}'], {
      cwd: ws,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('three');
    expect(run.stdout).not.toContain('one');
  }, 150_000);
});
