import path from 'node:path';
import type { CreateQuiverOptions, Quiver } from '@quiver/wiring';
import type { GlobalOptions } from './global-options.js';
import { launchEnvironment } from './launch/launch-environment.js';
import { printError } from './output.js';

/** Opens Quiver the way every command does: quiver.yaml from the cwd upward, else the embedded default. */
export async function openQuiver(
  global: GlobalOptions,
  extra: { personality?: string } = {},
  reopen: Pick<CreateQuiverOptions, 'trustProject' | 'sessionLogWriter' | 'onlyTools' | 'mcpBridge'> & {
    quiet?: boolean;
  } = {},
): Promise<Quiver> {
  const { createQuiver } = await import('@quiver/wiring');
  const { createStderrLogger } = await loadPluginHost();
  const quiver = await createQuiver({
    ...quiverOptions(global, extra),
    env: launchEnvironment(),
    ...(reopen.trustProject ? { trustProject: reopen.trustProject } : {}),
    ...(reopen.onlyTools ? { onlyTools: reopen.onlyTools } : {}),
    ...(reopen.mcpBridge ? { mcpBridge: reopen.mcpBridge } : {}),
    // A command that runs a call or two and ends commits its log rows itself; only the commands
    // that keep serving (`serve`, `rpc`) start the log's writer thread.
    sessionLogWriter: reopen.sessionLogWriter ?? 'calling-thread',
    logger: createStderrLogger(
      global.logLevel ?? (process.env.QUIVER_LOG_LEVEL as GlobalOptions['logLevel']) ?? 'warn',
    ),
  });
  // Every command says what of the project configuration it did not apply, and how to trust it.
  if (quiver.trustNotice && !reopen.quiet) printError(`quiver: ${quiver.trustNotice}`);
  return quiver;
}

/** The options every command opens Quiver with (without the logger). */
export function quiverOptions(
  global: GlobalOptions,
  extra: { personality?: string } = {},
): CreateQuiverOptions {
  return {
    ...(global.workspace ? { workspace: path.resolve(global.workspace) } : {}),
    ...(global.config ? { configPath: path.resolve(global.config) } : {}),
    ...(global.dataDir ? { dataDir: path.resolve(global.dataDir) } : {}),
    ...(extra.personality ? { personality: extra.personality } : {}),
    ...(global.trustProject ? { trustProject: true } : {}),
  };
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
