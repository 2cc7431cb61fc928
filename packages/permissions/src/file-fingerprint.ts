import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TrustedFileState, WorkspaceFilePins } from './trusted-files.js';

/**
 * What a file is now, for a pin to compare with: a hash of its content (a directory: of its
 * entries' names, kinds and link targets; a link: of its target), or `absent`.
 */
export function fileFingerprint(absolutePath: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absolutePath);
  } catch {
    return 'absent';
  }
  const hash = createHash('sha256');
  if (stat.isSymbolicLink()) hash.update(`link\0${fs.readlinkSync(absolutePath)}`);
  else if (stat.isDirectory()) {
    hash.update('directory');
    for (const entry of fs
      .readdirSync(absolutePath, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const kind = entry.isDirectory() ? 'd' : entry.isSymbolicLink() ? 'l' : entry.isFile() ? 'f' : 'o';
      const target = entry.isSymbolicLink() ? fs.readlinkSync(path.join(absolutePath, entry.name)) : '';
      hash.update(`\0${kind}\0${entry.name}\0${target}`);
    }
  } else if (stat.isFile()) hash.update(fs.readFileSync(absolutePath));
  else hash.update(`other\0${stat.mode}`);
  return `sha256:${hash.digest('hex')}`;
}

/** Pins kept in memory: for a session's grants, for tests, and for embedders with no trust record. */
export class InMemoryFilePins implements WorkspaceFilePins {
  readonly #pins = new Map<string, string>();

  state(absolutePath: string): TrustedFileState {
    const pinned = this.#pins.get(absolutePath);
    if (pinned === undefined) return 'unpinned';
    return fileFingerprint(absolutePath) === pinned ? 'pinned' : 'changed';
  }

  pin(absolutePaths: readonly string[]): void {
    for (const file of absolutePaths) this.#pins.set(file, fileFingerprint(file));
  }

  has(absolutePath: string): boolean {
    return this.#pins.has(absolutePath);
  }
}
