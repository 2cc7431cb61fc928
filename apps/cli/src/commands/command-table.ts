import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every command, in the order help lists them, each loaded only when asked for: a command's
 * module (and what it imports) is read only by a run of that command.
 */
export const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Register>]> = [
  ['tools', async () => (await import('./tools.js')).registerToolsCommand],
  ['call', async () => (await import('./call.js')).registerCallCommand],
  ['personality', async () => (await import('./personality.js')).registerPersonalityCommand],
  ['plugins', async () => (await import('./plugins.js')).registerPluginsCommand],
  ['plugin', async () => (await import('./plugin-new.js')).registerPluginNewCommand],
  ['search', async () => (await import('./search.js')).registerSearchCommand],
  ['reduce', async () => (await import('./reduce.js')).registerReduceCommand],
  ['permit', async () => (await import('./permit.js')).registerPermitCommand],
  ['log', async () => (await import('./log.js')).registerLogCommand],
  ['init', async () => (await import('./init.js')).registerInitCommand],
  ['trust', async () => (await import('./trust.js')).registerTrustCommand],
  ['mcp', async () => (await import('./mcp.js')).registerMcpCommand],
  ['serve', async () => (await import('./serve.js')).registerServeCommand],
  ['rpc', async () => (await import('./rpc.js')).registerRpcCommand],
  ['console', async () => (await import('./console.js')).registerConsoleCommand],
  ['config', async () => (await import('./config.js')).registerConfigCommand],
  ['permissions', async () => (await import('./permissions.js')).registerPermissionsCommand],
  ['doctor', async () => (await import('./doctor.js')).registerDoctorCommand],
  // The completion script describes every command: a run of it registers them all.
  ['completion', async () => (await import('../program.js')).registerAllCommands],
];
