import { clearProcessEnvironment } from './clear-process-environment.js';
import { holdLaunchEnvironment } from './launch-environment.js';
import { isKeptInProcessEnvironment } from './minimal-environment.js';

export type LaunchRole = { role: 'run' } | { role: 'failed'; message: string };

/** What stays in the process environment: a kept name whose value is not an exported bash function. */
function stays(name: string, value: string): boolean {
  return isKeptInProcessEnvironment(name) && !value.startsWith('()');
}

/**
 * Moves the environment this process was started with into memory, in this process, before any
 * tool can run: the full copy is held for launchEnvironment(); every variable that
 * minimal-environment.ts does not keep is removed from process.env (so no child inherits it by
 * default) and overwritten in the memory the kernel shows as `/proc/<pid>/environ` (so no process
 * of the same user reads it there). What remains is exactly what a process started with the
 * minimal environment would show. A process that cannot do this refuses to start rather than run
 * with secrets on display. Only Linux exposes the environment this way; elsewhere nothing changes.
 * See docs/security-model.md ("The Quiver process holds no secret in its environment").
 */
export function keepSecretsInMemory(): LaunchRole {
  if (process.platform !== 'linux') return { role: 'run' };
  const full: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) full[name] = value;
  // process.env first (unsetenv drops libc's pointers to the strings), then the strings themselves.
  for (const [name, value] of Object.entries(full)) if (!stays(name, value)) delete process.env[name];
  try {
    clearProcessEnvironment(stays);
  } catch (error) {
    return {
      role: 'failed',
      message: `cannot keep secrets out of this process's environment (${(error as Error).message}); start Quiver with only the variables it needs, e.g. env -i PATH="$PATH" HOME="$HOME" quiver …`,
    };
  }
  holdLaunchEnvironment(full);
  return { role: 'run' };
}
