import path from 'node:path';
import type { TrustedFileState, WorkspaceFilePins } from '@quiver/permissions';
import { type FilePin, type FilePins, pinFile } from './file-pins.js';
import type { TrustStorage } from './trust-storage.js';

export interface TrustedWorkspaceFilesOptions {
  /** The record whose `code.files` a person pinned with `quiver trust` (and later grants). */
  storage: Pick<TrustStorage, 'record' | 'pinFiles'>;
  /** Pins taken at launch (`--trust-project`): they stand in for the record's for this process. */
  launch?: FilePins | undefined;
}

/**
 * The trust record's pinned workspace files, as the shell analyzer asks about them: a file is
 * `pinned` while its content (or its absence) is what a person trusted, `changed` after that,
 * `unpinned` when no person pinned it. Pins made by this process answer at once, and are added to
 * the record when there is one.
 */
export class TrustedWorkspaceFiles implements WorkspaceFilePins {
  readonly #storage: TrustedWorkspaceFilesOptions['storage'];
  readonly #launch: FilePins | undefined;
  readonly #added: FilePins = {};

  constructor(options: TrustedWorkspaceFilesOptions) {
    this.#storage = options.storage;
    this.#launch = options.launch;
  }

  state(absolutePath: string): TrustedFileState {
    const file = path.resolve(absolutePath);
    const pinned = this.#pinOf(file);
    if (pinned === undefined) return 'unpinned';
    return pinFile(file, pinned).sha256 === pinned.sha256 ? 'pinned' : 'changed';
  }

  async pin(absolutePaths: readonly string[]): Promise<void> {
    const files: FilePins = {};
    for (const entry of absolutePaths) {
      const file = path.resolve(entry);
      files[file] = pinFile(file, this.#pinOf(file));
    }
    Object.assign(this.#added, files);
    await this.#storage.pinFiles(files);
  }

  #pinOf(file: string): FilePin | undefined {
    return this.#added[file] ?? (this.#launch ?? this.#storage.record()?.code?.files)?.[file];
  }
}
