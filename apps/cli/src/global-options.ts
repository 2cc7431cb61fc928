import type { LogLevel } from '@quiver/plugin-host';
import { Command } from 'commander';

export const VERSION = '0.1.0';

export interface GlobalOptions {
  config?: string;
  workspace?: string;
  dataDir?: string;
  logLevel?: LogLevel;
  /** `--trust-project`: the project configuration as found at launch is trusted for this process. */
  trustProject?: boolean;
}

/** The root command with the options every command shares; commands are added to it. */
export function createRootCommand(): Command {
  return new Command('quiver')
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
}

/** The global options as given to the root command, from any of its subcommands. */
export function globalOptions(command: Command): GlobalOptions {
  let root = command;
  while (root.parent) root = root.parent;
  return root.opts<GlobalOptions>();
}
