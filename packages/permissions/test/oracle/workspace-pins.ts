import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import type { TrustedFileState, WorkspaceFilePins } from '../../src/index.js';

/** What a path holds, in one comparable string: a file's sha256, a link's target, a directory, or nothing. */
function fingerprint(file: string): string {
  try {
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) return `link ${readlinkSync(file)}`;
    if (stat.isDirectory()) return 'directory';
    if (!stat.isFile()) return 'special';
    const mode = stat.mode & 0o111 ? 'x' : '-';
    return `file ${mode} ${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  } catch {
    return 'absent';
  }
}

/**
 * The trust record's pins as the oracle keeps them: in memory, a fingerprint per absolute path.
 * `pinTree` records a whole clean workspace as a person trusting it would: every path in it, and
 * every other path under it as absent. So a file planted later is `changed`, never `unpinned`:
 * the oracle gives the analyzer the most trust a person could, and any finding is still a finding.
 */
export class MemoryFilePins implements WorkspaceFilePins {
  readonly #pins = new Map<string, string>();
  readonly #trees: string[] = [];

  /** Pins every path under `root` as it is now, and every path not there as absent. */
  pinTree(root: string): void {
    const walk = (directory: string) => {
      this.#pins.set(directory, 'directory');
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory()) walk(full);
        else this.#pins.set(full, fingerprint(full));
      }
    };
    walk(path.resolve(root));
    this.#trees.push(path.resolve(root));
  }

  pin(absolutePaths: readonly string[]): void {
    for (const file of absolutePaths) this.#pins.set(path.resolve(file), fingerprint(path.resolve(file)));
  }

  state(absolutePath: string): TrustedFileState {
    const file = path.resolve(absolutePath);
    const pinned = this.#pins.get(file);
    if (pinned === undefined) {
      const inTree = this.#trees.some((root) => file === root || file.startsWith(`${root}${path.sep}`));
      if (!inTree) return 'unpinned';
      return fingerprint(file) === 'absent' ? 'pinned' : 'changed';
    }
    return fingerprint(file) === pinned ? 'pinned' : 'changed';
  }
}
