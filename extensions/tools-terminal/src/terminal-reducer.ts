import type { ReducerInput, ToolResult, ToolResultReducer } from '@quiver/types';
import { reduceGenericOutput } from './reducers/generic.js';
import { reduceGitOutput } from './reducers/git.js';
import { reduceInstallOutput } from './reducers/installs.js';
import { type Recognizer, stripAnsi } from './reducers/reducer-input.js';
import { reduceTestOutput } from './reducers/test-runners.js';
import { reduceTypescriptOutput } from './reducers/tsc.js';
import { splitTerminalText } from './terminal-result.js';

// Specific recognizers first; the generic head-and-tail cut applies only when none recognized the output.
const RECOGNIZERS: readonly Recognizer[] = [
  reduceGitOutput,
  reduceInstallOutput,
  reduceTestOutput,
  reduceTypescriptOutput,
  reduceGenericOutput,
];

/**
 * Shrinks one command's output to what a developer would look at. Returns the output unchanged
 * when nothing recognizes it or the reduction would not be shorter.
 */
export function reduceTerminalOutput(input: {
  command: string;
  output: string;
  exitCode: number | null;
}): string {
  const clean = stripAnsi(input.output).replace(/\r\n/g, '\n');
  const lines = clean.split('\n').map((line) => line.replace(/^.*\r(?=.)/, ''));
  if (lines.at(-1) === '') lines.pop();
  for (const recognizer of RECOGNIZERS) {
    const reduced = recognizer({ command: input.command, output: clean, lines, exitCode: input.exitCode });
    if (reduced !== undefined) return reduced.length < input.output.length ? reduced : input.output;
  }
  return input.output;
}

function commandOf(args: unknown): string | undefined {
  const command = (args as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
}

function exitCodeOf(result: ToolResult): number | null {
  const exitCode = (result.structured as { exitCode?: unknown } | undefined)?.exitCode;
  if (typeof exitCode === 'number') return exitCode;
  return result.ok ? 0 : null;
}

/** The reducer for `terminal`: reduces the output under the result's header line, keeps `structured`. */
export const terminalReducer: ToolResultReducer = {
  tool: 'terminal',
  reduce(result: ToolResult, input: ReducerInput): ToolResult {
    const command = commandOf(input.args);
    const text = result.ok ? result.value : result.error;
    const parts = splitTerminalText(text);
    if (command === undefined || parts === undefined) return result;
    const reducedOutput = reduceTerminalOutput({
      command,
      output: parts.output,
      exitCode: exitCodeOf(result),
    });
    const reduced = `${parts.header}\n${reducedOutput}`;
    if (reduced.length >= text.length) return result;
    return result.ok ? { ...result, value: reduced } : { ...result, error: reduced };
  },
};
