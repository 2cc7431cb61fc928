import { spawn } from 'node:child_process';
import type { FixtureTree } from './fixture-tree.js';
import { parseStraceLog, type TraceEvent } from './strace-log.js';

export interface SandboxRun {
  events: TraceEvent[];
  /** The traced bash: its first exec is the harness's own `bash -c`, not the command's. */
  rootPid: number | undefined;
  timedOut: boolean;
  /** The trace was cut at `maxTraceBytes`; what it lists is a lower bound. */
  truncated: boolean;
  exitCode: number | null;
  durationMs: number;
}

export interface SandboxOptions {
  timeoutMs?: number;
  maxTraceBytes?: number;
}

export const TRACED_CALLS = [
  'execve',
  'execveat',
  'clone',
  'clone3',
  'fork',
  'vfork',
  'chdir',
  'fchdir',
  'open',
  'openat',
  'openat2',
  'creat',
  'rename',
  'renameat',
  'renameat2',
  'unlink',
  'unlinkat',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'mkdir',
  'mkdirat',
  'truncate',
].join(',');

/** The environment candidate commands see: fixed, so that runs repeat; HOME is an empty tmpfs directory. */
export const SANDBOX_ENVIRONMENT: Record<string, string> = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/tmp/home',
  LANG: 'C.UTF-8',
  TMPDIR: '/tmp',
  TERM: 'dumb',
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * Runs `command` with real bash inside bubblewrap (read-only root, fresh tmpfs /tmp holding a
 * copy of the fixture, no network, own pid namespace) under `strace -f`, and returns every
 * program executed and every file write attempted by the shell and its descendants.
 */
export function runInSandbox(
  fixture: FixtureTree,
  command: string,
  options: SandboxOptions = {},
): Promise<SandboxRun> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxTraceBytes = options.maxTraceBytes ?? 8 * 1024 * 1024;
  const environment = Object.entries(SANDBOX_ENVIRONMENT).flatMap(([name, value]) => [
    '--setenv',
    name,
    value,
  ]);
  // strace writes through a FIFO that a background cat copies to our stdout, so the traced command never holds the trace's descriptor.
  // strace writes through a FIFO that cat copies to our stdout, so the traced command never holds
  // the trace's descriptor; the shell waits for cat so that the trace is complete before bwrap ends.
  const setup =
    'mkdir -p "$HOME" && cp -a "$1"/. "$2"/ && mkfifo /tmp/.oracle-trace && cd "$2" && shift 2 || exit 97; ' +
    '{ cat /tmp/.oracle-trace & } ; strace -o /tmp/.oracle-trace "$@" >/dev/null; status=$?; wait; exit $status';
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--size',
    String(64 * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    fixture.template,
    fixture.template,
    '--dir',
    fixture.workspace,
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    ...environment,
    '--chdir',
    '/',
    '/bin/sh',
    '-c',
    setup,
    'oracle-setup',
    fixture.template,
    fixture.workspace,
    '-f',
    '-qq',
    '--seccomp-bpf',
    '-y',
    '-s',
    '65536',
    '-e',
    'signal=none',
    '-e',
    `trace=${TRACED_CALLS}`,
    '/bin/bash',
    '-c',
    command,
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bwrap', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (truncated) return;
      bytes += chunk.length;
      if (bytes > maxTraceBytes) {
        truncated = true;
        kill();
        return;
      }
      chunks.push(chunk);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const log = Buffer.concat(chunks).toString('utf8');
      const events = parseStraceLog(log, fixture.workspace);
      const first = events[0];
      // Without the harness's own exec of bash the trace is empty or broken: judging it would pass everything.
      if (!timedOut && !truncated && (first?.kind !== 'exec' || !first.ok)) {
        reject(
          new Error(
            `The sandbox did not run bash under strace (exit ${code}): ${stderr.trim() || 'no output'}. Check that bwrap and strace work here: bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid strace -f true`,
          ),
        );
        return;
      }
      resolve({
        events,
        rootPid: first?.pid,
        timedOut,
        truncated,
        exitCode: code,
        durationMs: performance.now() - started,
      });
    });
  });
}
