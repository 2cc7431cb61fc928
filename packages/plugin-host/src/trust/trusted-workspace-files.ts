import * as permissions from '@quiver/permissions';

type ProgramConfigurationFiles = (workspace: string) => string[];

/**
 * The workspace files `quiver trust` and `--trust-project` pin besides code: what allowed
 * programs read as configuration (package.json, .npmrc, a Makefile), as the permissions package
 * lists them. Empty while that list is not available.
 */
export function trustedWorkspaceFiles(workspace: string): string[] {
  const list = (permissions as { programConfigurationFiles?: ProgramConfigurationFiles })
    .programConfigurationFiles;
  return list ? list(workspace) : [];
}
