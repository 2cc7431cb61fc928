/** Commands that run tools, and so children that could read the environment of their ancestors. */
const TOOL_RUNNING_COMMANDS: ReadonlySet<string> = new Set(['serve', 'call', 'rpc']);

/** Whether this command line may run tools (any argument naming such a command counts). */
export function mayRunTools(argv: readonly string[]): boolean {
  return argv.slice(2).some((argument) => TOOL_RUNNING_COMMANDS.has(argument));
}
