import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, tempDirs, write } from './helpers.js';

/** Pids of live (not zombie) processes whose command line contains `marker`. */
function survivors(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** A command whose whole tree ignores SIGTERM, one of them in a session of its own. */
function stubbornTree(marker: string): string {
  return [
    "trap '' TERM",
    `(trap '' TERM; exec -a ${marker}-child sleep 300) &`,
    `setsid bash -c "trap '' TERM; exec -a ${marker}-own-session sleep 300" &`,
    'echo tree-started',
    'wait',
  ].join('\n');
}

const PERSONALITY = `id: shell
plugins: [tools-terminal]
sandbox: off
permissions:
  # A script's commands cannot be proven, so even a blanket allow asks for it: only the exact command is allowed.
  allow: [terminal, terminal(bash tree.sh)]
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bash tree.sh` (the script written to the workspace) through `quiver call terminal`. */
function startCall(cwd: string, marker: string, extra: Record<string, unknown> = {}) {
  write(path.join(cwd, 'tree.sh'), stubbornTree(marker));
  const args = JSON.stringify({ command: 'bash tree.sh', ...extra });
  const child = spawn(
    process.execPath,
    [BIN, '--trust-project', 'call', 'terminal', '--args', args, '--json'],
    {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const finished = new Promise<Run>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout: output.stdout, stderr: output.stderr })),
  );
  return { child, finished };
}

async function waitForTree(marker: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (survivors(marker).length >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the command's tree (${marker}) never started`);
}

describe('quiver call stops the whole command tree before it exits', () => {
  const dirs = tempDirs();
  const markers: string[] = [];
  afterEach(() => {
    for (const marker of markers.splice(0)) for (const pid of survivors(marker)) process.kill(pid, 'SIGKILL');
    dirs.cleanup();
  });
  const workspace = () => {
    const dir = dirs.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: shell\n');
    write(path.join(dir, 'personalities/shell.yaml'), PERSONALITY);
    return dir;
  };
  const newMarker = (label: string) => {
    const marker = `quiver-cli-${label}-${Math.random().toString(36).slice(2, 10)}`;
    markers.push(marker);
    return marker;
  };

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`leaves no process of a tree that ignores SIGTERM alive after ${signal}`, async () => {
      const marker = newMarker(signal.toLowerCase());
      const { child, finished } = startCall(workspace(), marker);
      await waitForTree(marker);
      child.kill(signal);
      const run = await finished;
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, code: 'aborted' });
      expect(survivors(marker)).toEqual([]);
    });
  }

  it('keeps the output of a timed-out command and leaves none of its tree alive', async () => {
    const marker = newMarker('timeout');
    const { finished } = startCall(workspace(), marker, { timeout_ms: 1_000 });
    const run = await finished;
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as {
      ok: boolean;
      code: string;
      error: string;
      structured?: unknown;
    };
    expect(result).toMatchObject({ ok: false, code: 'timeout', structured: { timedOut: true } });
    expect(result.error).toContain('tree-started');
    expect(survivors(marker)).toEqual([]);
  });
});
