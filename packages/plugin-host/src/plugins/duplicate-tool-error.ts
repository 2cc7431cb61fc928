import { type PluginDefinition, QuiverError } from '@quiver/types';

/**
 * Tool names are one namespace across every loaded plugin, whatever the personalities enable, so
 * the clash can only be fixed by renaming or by not loading one of the two.
 */
export function duplicateToolError(
  tool: string,
  definition: PluginDefinition<any, any>,
  ownerId: string | undefined,
  loaded: ReadonlyMap<string, { source: string }>,
): QuiverError {
  const owner = ownerId ? `plugin "${ownerId}"` : 'the host';
  const ownerSource = ownerId ? loaded.get(ownerId)?.source : undefined;
  const firstParty = ownerSource?.startsWith('@quiver/') === true;
  const rename = `Rename the tool in "${definition.id}" (e.g. "${definition.id.replace(/[^a-zA-Z0-9_-]/g, '_')}_${tool}")`;
  return new QuiverError(
    'plugin_duplicate_tool',
    `Plugin "${definition.id}" registers tool "${tool}", which ${owner} already registers. Tool names are shared by every loaded plugin, so "${definition.id}" was not loaded.`,
    {
      fix: firstParty
        ? `${rename}: ${owner} is first-party and always loaded.`
        : `${rename}, or remove one of the two plugins from quiver.yaml \`plugins\` (a plugin loads for every personality, so leaving it out of a personality does not help).`,
      details: { tool, plugins: [ownerId, definition.id] },
    },
  );
}
