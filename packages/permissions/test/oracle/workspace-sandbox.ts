import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CleanFixtureTree } from './fixture-tree.js';
import { SANDBOX_ENVIRONMENT, TRACED_CALLS } from './sandbox-run.js';
import { parseStraceLog, type TraceEvent } from './strace-log.js';
import type { PlantedFile } from './workspace-states.js';

/** One command of a session: run in the planted workspace, or in the clean one (its baseline). */
export interface SessionCommand {
  command: string;
  /** Relative to the workspace; created empty in a clean run when the fixture lacks it. */
  cwd: string;
  planted: boolean;
}

export interface SessionRun {
  events: TraceEvent[];
  /** The working directory did not exist in the planted workspace: nothing ran. */
  skipped: boolean;
  timedOut: boolean;
  truncated: boolean;
  exitCode: number;
  /** Restoring the workspace and running the command, in the sandbox. */
  durationMs: number;
}

export interface SessionResult {
  runs: SessionRun[];
  durationMs: number;
}

export interface SessionOptions {
  timeoutMs?: number;
  maxTraceBytes?: number;
}

/** Where the sandbox sees the host's fixture base (read-only): each command starts from a copy of it. */
const SOURCE = '/tmp/.oracle-src';

/**
 * The session's driver, run by bash inside the sandbox and not traced. For each command it
 * restores the workspace, HOME and the directory beside the workspace from the read-only source,
 * plants the state (or, for a baseline, only creates the working directory), runs `bash -c` under
 * `strace -f` with a time limit, kills whatever the command left running, and prints the trace
 * after a marker line (`@@oracle-run <index> <status> <bytes>`); strace lines start with a pid.
 */
const DRIVER = `
job="$1"; base="$2"; limit="$3"; seconds="$4"; ws="\${5##*/}"; out="\${6##*/}"; home="\${HOME##*/}"; shift 6
mkdir -p /tmp/.clean /tmp/.planted "$base" || exit 97
cp -a ${SOURCE}/template /tmp/.clean/"$ws" && cp -a ${SOURCE}/"$home" ${SOURCE}/"$out" /tmp/.clean/ || exit 97
cp -a /tmp/.clean/. /tmp/.planted/ || exit 97
mapfile -t remove < "$job/remove"
[ \${#remove[@]} -gt 0 ] && rm -rf "\${remove[@]/#//tmp/.planted/$ws/}"
cp -a "$job/planted/." /tmp/.planted/"$ws"/ || exit 97
i=0
while [ -e "$job/cmd-$i" ]; do
  cd /
  started=$EPOCHREALTIME
  IFS= read -r -d '' cmd < "$job/cmd-$i"
  IFS= read -r cwd < "$job/cwd-$i"
  rm -rf "$base/$ws" "$base/$home" "$base/$out"
  if [ -e "$job/planted-$i" ]; then cp -a /tmp/.planted/. "$base"/; else cp -a /tmp/.clean/. "$base"/ && mkdir -p "$base/$ws/$cwd"; fi
  : > /tmp/.oracle-trace
  if cd "$base/$ws/$cwd" 2>/dev/null; then
    timeout -s KILL "$seconds" strace -o /tmp/.oracle-trace "$@" /bin/bash -c "$cmd" </dev/null >/dev/null 2>&1
    status=$?
  else
    status=98
  fi
  cd /
  kill -9 -1 2>/dev/null
  printf '\\n@@oracle-run %d %d %s %s\\n' "$i" "$status" "$started" "$EPOCHREALTIME"
  head -c "$limit" /tmp/.oracle-trace
  i=$((i + 1))
done
`;

/** Writes planted files under `root` as the model's file tools would: replacing what is there. */
export function plantFiles(root: string, files: readonly PlantedFile[]): void {
  for (const file of files) {
    const target = path.join(root, file.path);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(path.dirname(target), { recursive: true });
    if (file.symlink !== undefined) symlinkSync(file.symlink, target);
    else {
      writeFileSync(target, file.text ?? '');
      if (file.executable) chmodSync(target, 0o755);
    }
  }
}

/**
 * Besides the command oracle's environment: npm does not wait for a registry the sandbox cannot
 * reach (`npx tsc` in a workspace without it would retry for minutes). npm reads the local
 * `node_modules` and every configuration file before it would fetch, so this hides no planted state.
 */
export const WORKSPACE_ENVIRONMENT: Record<string, string> = {
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_fetch_retries: '0',
};

let jobs = 0;

/**
 * Runs many commands in one bubblewrap sandbox, each under its own `strace -f`, each in a fresh
 * copy of the fixture (planted or clean), HOME and the directory beside the workspace: one
 * sandbox per planted state instead of one per command. The sandbox is the command oracle's
 * (read-only root, tmpfs /tmp, no network, own pid namespace), with HOME inside the fixture base.
 */
export function runWorkspaceSession(
  fixture: CleanFixtureTree,
  files: readonly PlantedFile[],
  commands: readonly SessionCommand[],
  options: SessionOptions = {},
): Promise<SessionResult> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxTraceBytes = options.maxTraceBytes ?? 8 * 1024 * 1024;
  const job = path.join(fixture.base, `job-${process.pid}-${jobs++}`);
  mkdirSync(path.join(job, 'planted'), { recursive: true });
  plantFiles(path.join(job, 'planted'), files);
  writeFileSync(path.join(job, 'remove'), files.map((file) => `${file.path}\n`).join(''));
  for (const [index, entry] of commands.entries()) {
    writeFileSync(path.join(job, `cmd-${index}`), entry.command);
    writeFileSync(path.join(job, `cwd-${index}`), entry.cwd);
    if (entry.planted) writeFileSync(path.join(job, `planted-${index}`), '');
  }
  const sandboxJob = path.join(SOURCE, path.basename(job));
  const environment = Object.entries({
    ...SANDBOX_ENVIRONMENT,
    ...WORKSPACE_ENVIRONMENT,
    HOME: fixture.home,
  }).flatMap(([name, value]) => ['--setenv', name, value]);
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--size',
    String(256 * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    fixture.base,
    SOURCE,
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    ...environment,
    '--chdir',
    '/',
    '/bin/bash',
    '-c',
    DRIVER,
    'oracle-driver',
    sandboxJob,
    fixture.base,
    String(maxTraceBytes),
    String(Math.max(1, Math.ceil(timeoutMs / 1000))),
    fixture.workspace,
    fixture.outside,
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
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bwrap', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(
      () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {}
      },
      10_000 + commands.length * (timeoutMs + 2_000),
    );
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      rmSync(job, { recursive: true, force: true });
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(job, { recursive: true, force: true });
      const output = Buffer.concat(chunks).toString('utf8');
      const runs = splitRuns(output, commands, fixture, maxTraceBytes);
      if (runs.length !== commands.length) {
        reject(
          new Error(
            `The workspace sandbox ran ${runs.length} of ${commands.length} commands (exit ${code}): ${stderr.trim() || 'no output'}. Check that bwrap and strace work here: bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid strace -f true`,
          ),
        );
        return;
      }
      resolve({ runs, durationMs: performance.now() - started });
    });
  });
}

function splitRuns(
  output: string,
  commands: readonly SessionCommand[],
  fixture: CleanFixtureTree,
  maxTraceBytes: number,
): SessionRun[] {
  const runs: SessionRun[] = [];
  const parts = output.split(/^@@oracle-run (\d+) (\d+) ([\d.]+) ([\d.]+)$/m);
  // parts: [before, index, status, started, ended, trace, …]
  for (let at = 1; at + 4 < parts.length; at += 5) {
    const index = Number(parts[at]);
    const status = Number(parts[at + 1]);
    const durationMs = (Number(parts[at + 3]) - Number(parts[at + 2])) * 1000;
    const trace = parts[at + 4] ?? '';
    const size = Buffer.byteLength(trace) - 1;
    const command = commands[index];
    if (command === undefined) continue;
    const cwd = path.join(fixture.workspace, command.cwd);
    const events = status === 98 ? [] : parseStraceLog(trace, cwd);
    const first = events[0];
    if (status !== 98 && status !== 137 && (first?.kind !== 'exec' || !first.ok))
      throw new Error(
        `The sandbox did not run bash under strace for ${JSON.stringify(command.command)} (status ${status}).`,
      );
    runs.push({
      events,
      skipped: status === 98,
      timedOut: status === 137,
      truncated: size >= maxTraceBytes,
      exitCode: status,
      durationMs,
    });
  }
  return runs;
}
