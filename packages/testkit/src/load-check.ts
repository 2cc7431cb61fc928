import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BuiltinPlugin, type FailedPluginInfo, QuiverHost } from '@quiver/plugin-host';
import { type PluginDefinition, QuiverError } from '@quiver/types';

const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The first-party plugins `quiver` always loads, from @quiver/wiring (installed with @quiver/cli).
 * Imported only when asked for, so that a plugin's tests need not install them.
 */
export async function firstPartyPlugins(): Promise<BuiltinPlugin[]> {
  try {
    const wiring = (await import('@quiver/wiring')) as {
      loadAllFirstPartyPlugins(): Promise<BuiltinPlugin[]>;
    };
    return await wiring.loadAllFirstPartyPlugins();
  } catch (error) {
    throw new QuiverError(
      'plugin_not_found',
      `firstPartyPlugins needs @quiver/wiring, which could not be imported: ${(error as Error).message}`,
      {
        fix: 'Install @quiver/cli (which brings @quiver/wiring) as a devDependency of the plugin.',
        cause: error,
      },
    );
  }
}

/** The plugins given to a test host: the first-party ones first when asked for, as `quiver` loads them. */
export async function pluginsToLoad(
  plugins: readonly PluginDefinition<any, any>[],
  withFirstParty: boolean | undefined,
): Promise<BuiltinPlugin[]> {
  return [
    ...(withFirstParty ? await firstPartyPlugins() : []),
    ...plugins.map((definition) => ({ definition, source: `test:${definition.id}` })),
  ];
}

/** Loads the plugin in a real host with these settings and returns why it failed, if it did. */
export async function loadFailures(
  plugin: PluginDefinition<any, any>,
  options: { config?: Record<string, unknown>; firstPartyPlugins?: boolean },
): Promise<FailedPluginInfo[]> {
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-contract-')));
  try {
    const host = await QuiverHost.create({
      workspace,
      configDir: workspace,
      config: { pluginConfig: { [plugin.id]: options.config ?? {} } },
      builtinPlugins: await pluginsToLoad([plugin], options.firstPartyPlugins),
      logger: SILENT,
    });
    try {
      return host.plugins().failed;
    } finally {
      await host.close();
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** A QuiverError for a test host whose plugins failed: the first failure's code and fix, all messages. */
export function loadError(failed: readonly FailedPluginInfo[]): QuiverError {
  const first = failed[0]!;
  return new QuiverError(
    first.code as QuiverError['code'],
    `Plugins failed to load:\n${failed.map((failure) => `  ${failure.plugin} [${failure.code}] ${failure.message}`).join('\n')}`,
    { ...(first.fix ? { fix: first.fix } : {}), details: { failed } },
  );
}
