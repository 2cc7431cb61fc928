import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { CodePins } from './code-pins.js';
import { trustDirectory, workspaceRecordPath } from './trust-store.js';

/**
 * The hashes a `--trust-project` launch took, kept beside the trust records (never in the
 * workspace) so that the next launch re-hashes only files whose stat changed. A cache, not trust:
 * an entry is used only when device, inode, size and ctime still match.
 */
function cacheFile(workspace: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    return workspaceRecordPath(path.join(trustDirectory(env), 'launch-hashes'), workspace);
  } catch {
    return undefined;
  }
}

export function readPinCache(workspace: string, env: NodeJS.ProcessEnv = process.env): CodePins | undefined {
  const file = cacheFile(workspace, env);
  if (file === undefined) return undefined;
  try {
    const pins = JSON.parse(readFileSync(file, 'utf8')) as CodePins;
    return typeof pins.plugins === 'object' &&
      typeof pins.servers === 'object' &&
      typeof pins.files === 'object'
      ? pins
      : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a launch that cannot keep its hashes only hashes again next time. */
export function writePinCache(
  workspace: string,
  pins: CodePins,
  previous: CodePins | undefined,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const file = cacheFile(workspace, env);
  if (file === undefined || isDeepStrictEqual(pins, previous)) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(pins), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {}
}
