import { readFileSync, statSync } from 'node:fs';
import type { ReducerInput, ToolResult, ToolResultReducer } from '@quiver/types';
import { reduceDiagnosticsOutput } from './reducers/diagnostics.js';
import { reduceEslintOutput } from './reducers/eslint.js';
import { reduceGenericOutput } from './reducers/generic.js';
import { reduceGitOutput } from './reducers/git.js';
import { reduceInstallOutput } from './reducers/installs.js';
import { reduceNpmLsOutput } from './reducers/npm-ls.js';
import { DEFAULT_REDUCER_BUDGET, type Recognizer, stripAnsi } from './reducers/reducer-input.js';
import { reduceTestOutput } from './reducers/test-runners.js';
import { reduceTypescriptOutput } from './reducers/tsc.js';
import { splitTerminalText } from './terminal-result.js';

// Specific recognizers first; the generic head-and-tail cut applies only when none recognized the output.
const RECOGNIZERS: readonly Recognizer[] = [
  reduceGitOutput,
  reduceNpmLsOutput,
  reduceInstallOutput,
  reduceTestOutput,
  reduceTypescriptOutput,
  reduceEslintOutput,
  reduceDiagnosticsOutput,
  reduceGenericOutput,
];

interface OutputToReduce {
  command: string;
  output: string;
  exitCode: number | null;
  /** Characters the reduced output aims at; facts are kept beyond it. */
  budget?: number;
}

function recognize(input: OutputToReduce): { reduced: string; specific: boolean } | undefined {
  const clean = stripAnsi(input.output).replace(/\r\n/g, '\n');
  const lines = clean.split('\n').map((line) => line.replace(/^.*\r(?=.)/, ''));
  if (lines.at(-1) === '') lines.pop();
  for (const recognizer of RECOGNIZERS) {
    const reduced = recognizer({
      command: input.command,
      output: clean,
      lines,
      exitCode: input.exitCode,
      budget: input.budget ?? DEFAULT_REDUCER_BUDGET,
    });
    if (reduced !== undefined) return { reduced, specific: recognizer !== reduceGenericOutput };
  }
  return undefined;
}

/**
 * Shrinks one command's output to what a developer would look at. Returns the output unchanged
 * when nothing recognizes it or the reduction would not be shorter.
 */
export function reduceTerminalOutput(input: OutputToReduce): string {
  const recognized = recognize(input);
  return recognized && recognized.reduced.length < input.output.length ? recognized.reduced : input.output;
}

/** Recognizing the spilled full output finds failures the middle cut hid; past this size it is not worth the read. */
const MAX_SPILL_BYTES_TO_RECOGNIZE = 32 * 1024 * 1024;

function reduceSpilledOutput(
  spillFile: unknown,
  command: string,
  exitCode: number | null,
): string | undefined {
  if (typeof spillFile !== 'string') return undefined;
  try {
    if (statSync(spillFile).size > MAX_SPILL_BYTES_TO_RECOGNIZE) return undefined;
    const recognized = recognize({ command, output: readFileSync(spillFile, 'utf8'), exitCode });
    return recognized?.specific ? recognized.reduced : undefined;
  } catch {
    return undefined;
  }
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

function rawOutputBytes(result: ToolResult, output: string): number {
  const outputBytes = (result.structured as { outputBytes?: unknown } | undefined)?.outputBytes;
  return typeof outputBytes === 'number' ? outputBytes : Buffer.byteLength(output);
}

function withText(result: ToolResult, text: string): ToolResult {
  return result.ok ? { ...result, value: text } : { ...result, error: text };
}

/**
 * The reducer for `terminal`: reduces the output under the result's header line and keeps
 * `structured`. When the middle was cut and spilled, the full output is recognized instead, so a
 * failing test in the middle of a long run still shows. The text it returns, header included, is
 * never longer than what the command printed: when it would be, the printed text alone is
 * returned (the exit code stays in `structured` and in the result's code).
 */
export const terminalReducer: ToolResultReducer = {
  tool: 'terminal',
  reduce(result: ToolResult, input: ReducerInput): ToolResult {
    const command = commandOf(input.args);
    const text = result.ok ? result.value : result.error;
    const parts = splitTerminalText(text);
    if (command === undefined || parts === undefined) return result;
    const rawBytes = rawOutputBytes(result, parts.output);
    const exitCode = exitCodeOf(result);
    const structured = result.structured as { spillFile?: unknown; spillCapped?: unknown } | undefined;
    // A capped spill file lacks the end of the output, where runners print their summary.
    const spillFile = structured?.spillCapped === true ? undefined : structured?.spillFile;
    const reduced = [
      reduceSpilledOutput(spillFile, command, exitCode),
      reduceTerminalOutput({ command, output: parts.output, exitCode }),
    ]
      .filter((output): output is string => output !== undefined)
      .map((output) => `${parts.header}\n${output}`)
      .find((candidate) => candidate.length < text.length && Buffer.byteLength(candidate) <= rawBytes);
    if (reduced !== undefined) return withText(result, reduced);
    // An empty output is shown as a placeholder, which the command did not print either.
    const printed = rawBytes === 0 ? '' : parts.output;
    const complete = Buffer.byteLength(printed) === rawBytes;
    return complete && Buffer.byteLength(text) > rawBytes ? withText(result, printed) : result;
  },
};
