import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, TEST_XDG_DATA_HOME, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-console-stale-');
afterEach(() => dirs.cleanup());

/** Field 22 of /proc/<pid>/stat: when the process started, in ticks since boot. */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] as string;
}

/**
 * Runs `quiver console --json` below a shell, as a person's terminal does, after `record(shellPid)`
 * wrote what a console may have left in the shell's runtime directory.
 */
function consoleBelowShell(
  runtime: string,
  record: (shellPid: number) => Record<string, unknown>,
): Promise<{ code: number; stderr: string; recordFile: string }> {
  return new Promise((resolve, reject) => {
    // The shell waits for a line, so the record is written before the CLI looks; `; exit` keeps it
    // the CLI's parent (a last command alone would be exec'd in its place).
    const shell = spawn(
      'sh',
      ['-c', `read line; "$0" "$1" console --json; code=$?; exit $code`, process.execPath, BIN],
      {
        cwd: dirs.make(),
        env: { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: TEST_XDG_DATA_HOME, NO_COLOR: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const pid = shell.pid as number;
    const recordFile = path.join(runtime, 'quiver', 'console', `${pid}.json`);
    write(
      recordFile,
      JSON.stringify({
        pid,
        kind: 'serve (stdio)',
        url: 'http://127.0.0.1:9/',
        token: 'left-behind',
        workspace: '/nowhere',
        ...record(pid),
      }),
    );
    let stderr = '';
    shell.stderr.on('data', (chunk) => (stderr += chunk));
    shell.on('error', reject);
    shell.on('close', (code) => resolve({ code: code ?? -1, stderr, recordFile }));
    shell.stdin.end('go\n');
  });
}

describe('a console record left by a console that was killed', () => {
  it('does not make a later process with its pid pass for a console server, and is removed', async () => {
    const runtime = dirs.make();
    const run = await consoleBelowShell(runtime, () => ({
      startedAt: Date.now() - 60_000,
      processStart: '1',
    }));
    expect(run.stderr).not.toContain('person_only_command');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr.trim()).error.code).toBe('no_console');
    expect(existsSync(run.recordFile)).toBe(false);
  });

  it('written by an earlier version (no start ticks), counts only if written after the process started', async () => {
    const runtime = dirs.make();
    const run = await consoleBelowShell(runtime, () => ({ startedAt: Date.now() - 3_600_000 }));
    expect(run.stderr).not.toContain('person_only_command');
    expect(JSON.parse(run.stderr.trim()).error.code).toBe('no_console');
  });
});

describe('a console record of the very process above', () => {
  it('still refuses, by its start ticks or, from an earlier version, by its time', async () => {
    for (const record of [
      (pid: number) => ({ startedAt: Date.now(), processStart: startTicks(pid) }),
      () => ({ startedAt: Date.now() }),
    ]) {
      const run = await consoleBelowShell(dirs.make(), record);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('person_only_command');
      expect(run.stderr).toMatch(/runs inside a Quiver server with a console \(pid \d+\)/);
    }
  });
});
