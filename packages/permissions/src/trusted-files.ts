/**
 * Whether a workspace file that an allowed program reads as configuration or code (package.json
 * scripts, `.npmrc`, a Makefile) is as a person trusted it: `pinned` when its content (or its
 * absence) matches what the trust record pinned, `changed` when it differs, `unpinned` when no
 * person ever pinned it. Only `pinned` files (and write-protected ones) let a rule allow.
 */
export type TrustedFileState = 'pinned' | 'changed' | 'unpinned';

/** The host's view of the trust record's pinned workspace files. */
export interface WorkspaceFilePins {
  state(absolutePath: string): TrustedFileState;
  /**
   * Records the files as they are now, absent ones as absent: a person's grant ("always") or
   * `quiver trust` trusts them. Paths are absolute.
   */
  pin(absolutePaths: readonly string[]): void | Promise<void>;
}
