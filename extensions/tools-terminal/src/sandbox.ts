import { spawn } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxMode } from '@quiver/types';
import { BASH_FLAGS } from './bash-flags.js';
import type { WorkspaceHazards } from './sandbox-mounts.js';

export const BUBBLEWRAP_PATH = '/usr/bin/bwrap';

export type BubblewrapProbe = { works: true } | { works: false; installed: boolean; reason: string };

let cachedProbe: Promise<BubblewrapProbe> | undefined;

function probeBubblewrap(binary: string): Promise<BubblewrapProbe> {
  return new Promise((resolve) => {
    const child = spawn(
      binary,
      [
        '--unshare-net',
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--unshare-pid',
        '--new-session',
        '--die-with-parent',
        'true',
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ works: false, installed: error.code !== 'ENOENT', reason: error.message });
    });
    child.on('close', (code) => {
      resolve(
        code === 0
          ? { works: true }
          : { works: false, installed: true, reason: stderr.trim() || `exit code ${code}` },
      );
    });
  });
}

/** Whether bubblewrap runs here; probed once per process. */
export function bubblewrapAvailable(binary = BUBBLEWRAP_PATH): Promise<BubblewrapProbe> {
  if (binary !== BUBBLEWRAP_PATH) return probeBubblewrap(binary);
  cachedProbe ??= probeBubblewrap(binary);
  return cachedProbe;
}

export type SandboxDecision = { sandboxed: boolean } | { sandboxed: false; error: string };

export async function decideSandbox(mode: SandboxMode, binary = BUBBLEWRAP_PATH): Promise<SandboxDecision> {
  if (mode === 'off') return { sandboxed: false };
  const probe = await bubblewrapAvailable(binary);
  if (probe.works) return { sandboxed: true };
  if (mode === 'auto') return { sandboxed: false };
  return {
    sandboxed: false,
    error: probe.installed
      ? `sandbox: required, but bubblewrap (bwrap) does not work here (${probe.reason}) — fix the bwrap install, or set sandbox: auto`
      : 'sandbox: required, but bubblewrap (bwrap) is not installed — apt-get install bubblewrap, or set sandbox: auto',
  };
}

/**
 * What to tell a person once when `sandbox: auto` will run commands unsandboxed because
 * bubblewrap does not work here; undefined when commands will be sandboxed or the mode says
 * otherwise (`off` asked for it, `required` refuses each command with its own error).
 */
export async function sandboxNotice(
  mode: SandboxMode,
  binary = BUBBLEWRAP_PATH,
): Promise<string | undefined> {
  if (mode !== 'auto') return undefined;
  const probe = await bubblewrapAvailable(binary);
  if (probe.works) return undefined;
  const why = probe.installed
    ? `bubblewrap (bwrap) does not work here (${probe.reason})`
    : 'bubblewrap (bwrap) is not installed';
  return `terminal commands run unsandboxed: sandbox is auto, but ${why} — apt-get install bubblewrap, set sandbox: required to refuse instead, or sandbox: off to run unsandboxed without this notice`;
}

/** Where system daemons keep their sockets; a tmpfs over each hides them (and /tmp's clutter). */
const HIDDEN_DIRECTORIES = ['/run', '/var/run', '/tmp'] as const;

/** Each directory once, by what it resolves to (/var/run is usually a link to /run). */
function directoriesToHide(): string[] {
  const seen = new Set<string>();
  const hidden: string[] = [];
  for (const directory of HIDDEN_DIRECTORIES) {
    let real: string;
    try {
      real = realpathSync(directory);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    hidden.push(real);
  }
  return hidden;
}

/** Granted sockets by their real path, so a grant of /var/run/x.sock holds when /var/run links to /run. */
function grantedSockets(allowed: ReadonlySet<string>): string[] {
  const sockets: string[] = [];
  for (const socket of allowed) {
    try {
      sockets.push(realpathSync(socket));
    } catch {
      // Not there (yet): nothing to connect to.
    }
  }
  return sockets;
}

/** What git reads as configuration or code in a git directory: kept read-only inside a writable bind. */
const GIT_CONFIGURATION = [
  'config',
  'config.worktree',
  'commondir',
  'info',
  path.join('objects', 'info', 'alternates'),
];

/** The arguments that keep a git directory's configuration, hooks and attributes read-only. */
function gitProtection(gitDirectories: readonly string[]): string[] {
  const args: string[] = [];
  for (const gitDirectory of gitDirectories) {
    for (const name of GIT_CONFIGURATION) {
      const file = path.join(gitDirectory, name);
      if (existsSync(file)) args.push('--ro-bind', file, file);
    }
    const hooks = path.join(gitDirectory, 'hooks');
    // A missing hooks directory would let the command create one; an empty read-only one is put there.
    if (existsSync(hooks)) args.push('--ro-bind', hooks, hooks);
    else args.push('--tmpfs', hooks, '--remount-ro', hooks);
  }
  return args;
}

/**
 * The person's home (and every other user's) is hidden behind an empty tmpfs: a program the rules
 * allow sees the workspace and the system, not `~/.ssh` or Quiver's trust records. Their git
 * identity and settings stay readable, so that git works as they set it up.
 */
function homeHiding(roots: readonly string[]): string[] {
  const homes = new Set<string>();
  for (const directory of ['/home', '/root', os.homedir()]) {
    try {
      homes.add(realpathSync(directory));
    } catch {
      // Not there: nothing to hide.
    }
  }
  const args: string[] = [];
  for (const home of homes) {
    // A home that is a workspace root or holds one is re-bound by the roots' own mounts after this.
    if (roots.some((root) => home.startsWith(`${root}/`) || home === '/')) continue;
    args.push('--tmpfs', home);
  }
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  for (const file of [
    path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    path.join(xdg, 'git', 'attributes'),
  ])
    if (existsSync(file)) args.push('--ro-bind', file, file);
  return args;
}

/**
 * An empty directory (or /dev/null for a file) over each hidden path that exists under a root:
 * elsewhere the system is read-only and /run, /tmp and the homes are empty already.
 */
function hiding(hiddenPaths: readonly string[], roots: readonly string[]): string[] {
  const args: string[] = [];
  for (const hidden of hiddenPaths) {
    let real: string;
    try {
      real = realpathSync(hidden);
    } catch {
      continue;
    }
    if (!roots.some((root) => real === root || real.startsWith(`${root}/`))) continue;
    if (statSync(real).isDirectory()) args.push('--tmpfs', real, '--remount-ro', real);
    else args.push('--ro-bind', '/dev/null', real);
  }
  return args;
}

/**
 * bwrap arguments: read-only system, writable roots and temp dir, no network, its own PID
 * namespace and /proc (Quiver and everything else on the host are invisible, and every process
 * of the command dies with it), a new session (no terminal to inject input into), dies with
 * Quiver. Mount order matters: later mounts cover earlier ones.
 */
export function bubblewrapArguments(options: {
  roots: readonly string[];
  tempDir: string;
  cwd: string;
  command: string;
  hazards: WorkspaceHazards;
  /** Socket paths the personality lets the command reach. */
  allowedSockets?: readonly string[];
  /** What runs instead of `bash -c command` (the pseudo-terminal's relay). */
  program?: readonly string[];
  /** Directories under a hidden home that the command may read (Quiver's list of its terminals). */
  readableDirectories?: readonly string[];
  /** Paths the command must not see (`ProcessHandle.hiddenPaths`); those under the roots are covered. */
  hiddenPaths?: readonly string[];
}): string[] {
  const allowed = new Set(options.allowedSockets ?? []);
  const realAllowed = new Set(grantedSockets(allowed));
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...directoriesToHide().flatMap((directory) => ['--tmpfs', directory]),
    ...homeHiding(options.roots),
    ...grantedSockets(allowed).flatMap((socket) => ['--bind', socket, socket]),
    ...options.roots.flatMap((root) => ['--bind', root, root]),
    '--bind',
    options.tempDir,
    options.tempDir,
    ...gitProtection(options.hazards.gitDirectories),
    ...options.hazards.readOnly.flatMap((entry) => ['--ro-bind', entry, entry]),
    ...options.hazards.sockets
      .filter((socket) => !allowed.has(socket) && !realAllowed.has(socket))
      .flatMap((socket) => ['--ro-bind', '/dev/null', socket]),
    ...(options.readableDirectories ?? []).flatMap((directory) => ['--ro-bind', directory, directory]),
    ...hiding(options.hiddenPaths ?? [], options.roots),
    '--unshare-net',
    '--unshare-pid',
    '--new-session',
    '--die-with-parent',
    '--chdir',
    options.cwd,
    ...(options.program ?? ['bash', ...BASH_FLAGS, '-c', options.command]),
  ];
}
