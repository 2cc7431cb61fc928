import { programConfigurationFiles } from '@quiver/permissions';

/**
 * The workspace files `quiver trust` and `--trust-project` pin besides code: what allowed
 * programs read as configuration (package.json, .npmrc, a Makefile), as the permissions package
 * lists them.
 */
export function trustedWorkspaceFiles(workspace: string): string[] {
  return programConfigurationFiles(workspace);
}
