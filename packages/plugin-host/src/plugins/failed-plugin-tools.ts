import type { FailedPluginInfo } from './plugin-catalog.js';
import { looksLikePath } from './plugin-resolver.js';

const describe = (failure: FailedPluginInfo) =>
  `[${failure.code}] ${failure.message}${failure.fix ? ` Fix: ${failure.fix}` : ''}`;

/**
 * Why a tool a call names may be missing: the plugin that tried to register it failed to load,
 * or plugins the personality enables did. Undefined when no failed plugin can explain it.
 */
export function explainMissingTool(
  tool: string,
  failed: readonly FailedPluginInfo[],
  enabledPlugins: readonly string[],
): string | undefined {
  const owner = failed.find((failure) => failure.tools.includes(tool));
  if (owner)
    return `Tool "${tool}" is from plugin "${owner.plugin}", which failed to load: ${describe(owner)}`;
  // A plugin named by path that failed before it loaded (refused for a changed pin, missing) has
  // no id yet: it may be one the personality enables.
  const enabled = failed.filter(
    (failure) => enabledPlugins.includes(failure.plugin) || looksLikePath(failure.plugin),
  );
  if (enabled.length === 0) return undefined;
  const names = enabled.map((failure) => `"${failure.plugin}"`).join(', ');
  return `${enabled.length === 1 ? 'Plugin' : 'Plugins'} ${names}, enabled by this personality, failed to load, so ${enabled.length === 1 ? 'its' : 'their'} tools are missing: ${enabled.map((failure) => `${failure.plugin}: ${describe(failure)}`).join(' ')}`;
}
