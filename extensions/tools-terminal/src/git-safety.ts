import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Settings every git that Quiver starts runs with, passed as command-line configuration (the
 * highest layer), so that state the model planted in the workspace cannot turn a git command:
 * - `safe.bareRepository=explicit`: a directory that merely looks like a bare repository (HEAD,
 *   objects/, refs/ written with file tools) is refused instead of used with its configuration;
 * - `core.fsmonitor=false`: no filesystem-monitor program runs;
 * - `core.hooksPath`: an empty directory, so no hook runs, wherever the configuration points;
 * - `protocol.ext.allow=never`: `ext::` URLs, which run a command, are refused.
 * `diff.external` and textconv drivers cannot be switched off this way without breaking `git
 * diff` itself; they come only from configuration a person trusted (see the shell analyzer).
 */
export function gitSafetyEnvironment(
  environment: Record<string, string>,
  hooksDirectory: string,
): Record<string, string> {
  const settings: Array<[string, string]> = [
    ['safe.bareRepository', 'explicit'],
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', hooksDirectory],
    ['protocol.ext.allow', 'never'],
  ];
  const existing = Number.parseInt(environment.GIT_CONFIG_COUNT ?? '0', 10);
  const start = Number.isInteger(existing) && existing > 0 ? existing : 0;
  const result = { ...environment };
  settings.forEach(([key, value], index) => {
    result[`GIT_CONFIG_KEY_${start + index}`] = key;
    result[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  result.GIT_CONFIG_COUNT = String(start + settings.length);
  return result;
}

const made = new Map<string, Promise<string>>();

/** An empty, read-only directory for `core.hooksPath`, made once per process beside the spill files. */
export function emptyHooksDirectory(spillDir: string): Promise<string> {
  const directory = path.join(path.dirname(spillDir), 'git-no-hooks');
  let ready = made.get(directory);
  if (ready === undefined) {
    ready = mkdir(directory, { recursive: true })
      .then(() => chmod(directory, 0o555).catch(() => undefined))
      .then(() => directory);
    // A failure is tried again by the next command, not remembered.
    ready.catch(() => made.delete(directory));
    made.set(directory, ready);
  }
  return ready;
}
