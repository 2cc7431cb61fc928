import { fail, ok, type ToolResult } from '@quiver/types';

/**
 * The result a tool would have produced for a raw output, before its reducer: for the shell
 * tools the terminal's own formatting; for any other tool the text as-is (failed when the exit
 * code is non-zero). Lets `quiver reduce` show exactly what the model would receive. `spillDir`
 * is where a shell tool's long output is spilled, as the tool spills it; the caller removes it.
 * Asynchronous since the terminal package is imported only for a shell tool.
 */
export async function resultFromRawOutput(
  tool: string,
  input: { output: string; args: Record<string, unknown>; exitCode?: number; spillDir?: string },
): Promise<ToolResult> {
  if (tool === 'terminal' || tool === 'terminal_read') {
    // Imported here: the terminal's tools are not loaded by a process that does not run them.
    const { terminalResultFromRaw } = await import('@quiver/tools-terminal');
    return terminalResultFromRaw({
      command: String(input.args.command ?? ''),
      output: input.output,
      exitCode: input.exitCode ?? 0,
      ...(input.spillDir === undefined ? {} : { spillDir: input.spillDir }),
    });
  }
  return input.exitCode ? fail('execution_failed', input.output) : ok(input.output);
}
