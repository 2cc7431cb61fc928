import { type Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/command-table.js';
import { EXIT } from './exit-codes.js';
import { createRootCommand } from './global-options.js';

/**
 * The command a command line runs: the first argument that is neither an option of the root
 * command nor the value of one. Undefined for `quiver --version`, `quiver --help` and the like.
 */
export function commandName(root: Command, argv: readonly string[]): string | undefined {
  const takesValue = new Set(
    root.options
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.short, option.long].filter((flag): flag is string => flag !== undefined)),
  );
  const args = argv.slice(2);
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] as string;
    if (argument === '--') return args[index + 1];
    if (!argument.startsWith('-')) return argument;
    if (takesValue.has(argument)) index += 1;
  }
  return undefined;
}

/**
 * The program for this command line: the root and the one command it runs, loaded on demand.
 * Help, unknown commands (whose error suggests the nearest name) and `help <command>` get them all.
 */
async function programFor(argv: readonly string[]): Promise<Command> {
  const root = createRootCommand();
  const name = commandName(root, argv);
  const entry = COMMANDS.find(([command]) => command === name);
  if (entry) {
    (await entry[1]())(root);
    return root;
  }
  const asksOnlyVersion =
    name === undefined && argv.slice(2).some((arg) => arg === '-V' || arg === '--version');
  if (asksOnlyVersion && !argv.slice(2).some((arg) => arg === '-h' || arg === '--help')) return root;
  const { buildProgram } = await import('./program.js');
  return buildProgram();
}

/** Runs the CLI and resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = await programFor(argv);
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
    const { reportError } = await import('./output.js');
    return reportError(error, argv.includes('--json'));
  }
}
