import type { Command } from 'commander';
import { registerCallCommand } from './commands/call.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerConfigCommand } from './commands/config.js';
import { registerConsoleCommand } from './commands/console.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerInitCommand } from './commands/init.js';
import { registerLogCommand } from './commands/log.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerPermissionsCommand } from './commands/permissions.js';
import { registerPermitCommand } from './commands/permit.js';
import { registerPersonalityCommand } from './commands/personality.js';
import { registerPluginNewCommand } from './commands/plugin-new.js';
import { registerPluginsCommand } from './commands/plugins.js';
import { registerReduceCommand } from './commands/reduce.js';
import { registerRpcCommand } from './commands/rpc.js';
import { registerSearchCommand } from './commands/search.js';
import { registerServeCommand } from './commands/serve.js';
import { registerToolsCommand } from './commands/tools.js';
import { registerTrustCommand } from './commands/trust.js';
import { createRootCommand } from './global-options.js';

/**
 * Every command's definition, composed (docs/cli-reference.md is generated from it). A run of the
 * CLI loads only the command it runs: see run-cli.ts.
 */
export function buildProgram(): Command {
  const program = createRootCommand();
  registerAllCommands(program);
  return program;
}

/** Adds every command to `program` (what `quiver completion` needs to describe them all). */
export function registerAllCommands(program: Command): void {
  registerToolsCommand(program);
  registerCallCommand(program);
  registerPersonalityCommand(program);
  registerPluginsCommand(program);
  registerPluginNewCommand(program);
  registerSearchCommand(program);
  registerReduceCommand(program);
  registerPermitCommand(program);
  registerLogCommand(program);
  registerInitCommand(program);
  registerTrustCommand(program);
  registerMcpCommand(program);
  registerServeCommand(program);
  registerRpcCommand(program);
  registerConsoleCommand(program);
  registerConfigCommand(program);
  registerPermissionsCommand(program);
  registerDoctorCommand(program);
  registerCompletionCommand(program);
}
