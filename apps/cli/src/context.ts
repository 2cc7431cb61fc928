import path from 'node:path';
import type { LogLevel } from '@quiver/plugin-host';
import type { Quiver } from '@quiver/wiring';

export interface GlobalOptions {
  config?: string;
  workspace?: string;
  dataDir?: string;
  logLevel?: LogLevel;
}

/** Opens Quiver the way every command does: quiver.yaml from the cwd upward, else the embedded default. */
export async function openQuiver(
  global: GlobalOptions,
  extra: { personality?: string } = {},
): Promise<Quiver> {
  const { createQuiver } = await import('@quiver/wiring');
  const { createStderrLogger } = await loadPluginHost();
  return createQuiver({
    ...(global.workspace ? { workspace: path.resolve(global.workspace) } : {}),
    ...(global.config ? { configPath: path.resolve(global.config) } : {}),
    ...(global.dataDir ? { dataDir: path.resolve(global.dataDir) } : {}),
    ...(extra.personality ? { personality: extra.personality } : {}),
    logger: createStderrLogger(
      global.logLevel ?? (process.env.QUIVER_LOG_LEVEL as LogLevel | undefined) ?? 'warn',
    ),
  });
}

/**
 * The host and runtime are imported when a command runs, not at start-up: `quiver --help` and
 * `quiver init` stay fast. Wiring goes first because it installs reflect-metadata for tsyringe.
 */
export async function loadPluginHost(): Promise<typeof import('@quiver/plugin-host')> {
  await import('@quiver/wiring');
  return import('@quiver/plugin-host');
}

export function loadRuntime(): Promise<typeof import('@quiver/runtime')> {
  return import('@quiver/runtime');
}
