import { spawn } from 'node:child_process';
import type { SandboxMode } from '@quiver/types';
import { BASH_FLAGS } from './bash-flags.js';

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

/** bwrap arguments: read-only system, writable roots and temp dir, no network, dies with Quiver. */
export function bubblewrapArguments(options: {
  roots: readonly string[];
  tempDir: string;
  cwd: string;
  command: string;
}): string[] {
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...options.roots.flatMap((root) => ['--bind', root, root]),
    '--bind',
    options.tempDir,
    options.tempDir,
    '--unshare-net',
    '--die-with-parent',
    '--chdir',
    options.cwd,
    'bash',
    ...BASH_FLAGS,
    '-c',
    options.command,
  ];
}
