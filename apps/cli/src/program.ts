import { Command, CommanderError } from 'commander';
import { registerCallCommand } from './commands/call.js';
import { registerInitCommand } from './commands/init.js';
import { registerLogCommand } from './commands/log.js';
import { registerMcpCommand } from './commands/mcp.js';
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
import type { GlobalOptions } from './context.js';
import { EXIT, reportError } from './output.js';

export const VERSION = '0.1.0';

/** Every command's definition; docs/cli-reference.md is generated from it. */
export function buildProgram(): Command {
  const program = new Command('quiver')
    .description(
      'Quiver: the tool layer for AI agents. See what a model sees, call tools, serve them over MCP.',
    )
    .version(VERSION)
    .option('-c, --config <path>', 'quiver.yaml to use (default: searched from the current directory upward)')
    .option('-w, --workspace <dir>', 'workspace root (default: from the config, else the current directory)')
    .option('--data-dir <dir>', 'data directory (default: .quiver in the workspace)')
    .option('--log-level <level>', 'debug | info | warn | error | silent', 'warn')
    .option(
      '--trust-project',
      "trust the project's quiver.yaml and personality files as found at launch, for this process only (e.g. in an MCP client's config)",
    )
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
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
  return program;
}

export function globalOptions(command: Command): GlobalOptions {
  let root = command;
  while (root.parent) root = root.parent;
  return root.opts<GlobalOptions>();
}

/** Runs the CLI and resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return (process.exitCode as number | undefined) ?? EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      )
        return EXIT.ok;
      return EXIT.usage;
    }
    return reportError(error, argv.includes('--json'));
  }
}
