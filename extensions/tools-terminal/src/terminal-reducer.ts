import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { ReducerInput, ToolResult, ToolResultReducer } from '@quiver/types';
import { reduceAccessLog } from './reducers/access-log.js';
import { looksBinary, nulSeparatedAsLines, reduceBinaryOutput } from './reducers/binary.js';
import {
  type OtherCommandsParts,
  otherCommandsParts,
  ownExitCode,
  scriptRuns,
} from './reducers/compound-command.js';
import { reduceCountTable } from './reducers/counts.js';
import { coverageSummary } from './reducers/coverage.js';
import { reduceDiagnosticsOutput } from './reducers/diagnostics.js';
import { reduceEslintOutput } from './reducers/eslint.js';
import { reduceFramedDiagnostics } from './reducers/framed-diagnostics.js';
import { reduceGenericOutput } from './reducers/generic.js';
import { reduceGitOutput } from './reducers/git.js';
import { reducePatchOutput } from './reducers/git-diff.js';
import { reduceHexDump } from './reducers/hexdump.js';
import { reduceHtmlPage } from './reducers/html.js';
import { reduceInstallOutput } from './reducers/installs.js';
import { reduceJsonLines } from './reducers/json-lines.js';
import { reduceJsonValue } from './reducers/json-value.js';
import { reduceJunitXml } from './reducers/junit-xml.js';
import { reduceNpmLsOutput } from './reducers/npm-ls.js';
import { reduceNameStatus, reducePathList } from './reducers/paths.js';
import { reduceRecordOutput } from './reducers/records.js';
import {
  DEFAULT_REDUCER_BUDGET,
  type Recognizer,
  terminalText,
  WINDOW_CUT_LINE,
  WRAPPER_NOTE,
  WRAPPER_VERDICT,
} from './reducers/reducer-input.js';
import { reduceSearchMatches } from './reducers/search-matches.js';
import { reduceShellcheckOutput } from './reducers/shellcheck.js';
import { reduceTaggedLines } from './reducers/tagged.js';
import { reduceTestOutput } from './reducers/test-runners.js';
import { reduceTreeRecords } from './reducers/tree-records.js';
import { reduceTypescriptOutput } from './reducers/tsc.js';
import { reduceWordList } from './reducers/word-list.js';
import { splitTerminalText } from './terminal-result.js';

// Specific recognizers first; the generic head-and-tail cut applies only when none recognized the output.
const RECOGNIZERS: readonly Recognizer[] = [
  reduceNameStatus,
  reduceGitOutput,
  reduceNpmLsOutput,
  reduceInstallOutput,
  reduceJunitXml,
  reduceTestOutput,
  reduceTypescriptOutput,
  reduceEslintOutput,
  reduceShellcheckOutput,
  reduceFramedDiagnostics,
  reduceDiagnosticsOutput,
  reducePatchOutput,
  reduceHexDump,
  reduceHtmlPage,
  reduceJsonLines,
  reduceJsonValue,
  reduceTaggedLines,
  reduceSearchMatches,
  reducePathList,
  reduceCountTable,
  reduceWordList,
  reduceAccessLog,
  reduceTreeRecords,
  reduceRecordOutput,
  reduceGenericOutput,
];

interface OutputToReduce {
  command: string;
  output: string;
  exitCode: number | null;
  /** Characters the reduced output aims at; facts are kept beyond it. */
  budget?: number;
  /** Bytes the command printed, when known (the output may be decoded or cut). */
  bytes?: number;
}

/** What was not read, when the terminal's window cut the middle of the output. */
function missingPart(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const cut = WINDOW_CUT_LINE.exec(line);
    if (cut) return `${cut[1]} bytes from the middle of the output were not read`;
  }
  return undefined;
}

const MAX_WRAPPER_LINES = 12;

/**
 * What a wrapper (make, pnpm -r, npm scripts, turbo, tsup) said of the run, kept under a specific
 * summary that left it out: its verdicts first, then its notes, in the order printed.
 */
function withWrapperVerdict(reduced: string, lines: readonly string[]): string {
  const picked = new Set<number>();
  const seen = new Set<string>();
  for (const pattern of [WRAPPER_VERDICT, WRAPPER_NOTE])
    for (const [index, line] of lines.entries()) {
      if (picked.size >= MAX_WRAPPER_LINES) break;
      const trimmed = line.trim();
      if (!pattern.test(line) || reduced.includes(trimmed) || seen.has(trimmed)) continue;
      picked.add(index);
      seen.add(trimmed);
    }
  if (picked.size === 0) return reduced;
  const missing = [...picked].sort((a, b) => a - b).map((index) => (lines[index] as string).trim());
  return `${reduced}\n${missing.join('\n')}`;
}

/** A test run's coverage table, kept (totals and least covered files) under a summary that left it out. */
function withCoverage(reduced: string, lines: readonly string[], budget: number): string {
  if (/^\s*All files\s*\|/m.test(reduced)) return reduced;
  const coverage = coverageSummary(lines, Math.max(1_000, budget - reduced.length));
  return coverage === undefined ? reduced : `${reduced}\n${coverage.join('\n')}`;
}

/**
 * The reduction with the other commands' output of a compound command line around it, each part
 * reduced as it would be alone.
 */
function withOtherCommands(
  reduced: string,
  lines: readonly string[],
  input: OutputToReduce,
  /** The recognizers that read a part already: another command's output is not theirs. */
  used: ReadonlySet<Recognizer>,
): string {
  const parts = otherCommandsParts(reduced, lines, input.command, input.exitCode);
  if (parts === undefined) return reduced;
  const alone = (part: OtherCommandsParts['before']) => {
    if (part === undefined) return undefined;
    const output = part.lines.join('\n');
    const other = recognize({ ...input, output, exitCode: part.exitCode, bytes: undefined }, output, used);
    // Whole when no reducer knows it and it is short.
    return (other && other.reduced.length < output.length ? other.reduced : output).trim();
  };
  return [alone(parts.before), reduced, alone(parts.after)]
    .filter((part) => part !== undefined && part !== '')
    .join('\n');
}

function recognize(
  input: OutputToReduce,
  /** What a terminal shows of the output, when the caller has it already. */
  shown?: string,
  /** Recognizers not to try: they read another command's part of the output. */
  used: ReadonlySet<Recognizer> = new Set(),
): { reduced: string; specific: boolean } | undefined {
  // Binary output is judged as printed: a terminal's rewriting of lines at carriage returns means nothing in it.
  if (looksBinary(input.output)) {
    const partial = missingPart(input.output.split('\n'));
    const reduced = reduceBinaryOutput({
      output: input.output,
      budget: input.budget ?? DEFAULT_REDUCER_BUDGET,
      ...(input.bytes === undefined ? {} : { bytes: input.bytes }),
      ...(partial === undefined ? {} : { partial }),
    });
    if (reduced !== undefined) return { reduced, specific: true };
  }
  const clean = shown ?? terminalText(nulSeparatedAsLines(input.output));
  const lines = clean.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const partial = missingPart(lines);
  // The window cuts at a byte, not a line: the line after its marker is the end of a line cut in two.
  const marker = lines.findIndex((line) => WINDOW_CUT_LINE.test(line));
  if (marker >= 0 && marker + 1 < lines.length) lines.splice(marker + 1, 1);
  const exitCode = ownExitCode(input.command, input.exitCode);
  const runs = scriptRuns(input.command, lines);
  if (runs !== undefined && used.size === 0) {
    // One script run after another (`for d in a b c; do (cd $d && npm test); done`): each run is
    // read on its own under its `> pkg@1.0.0 test` banner, never merged with the others.
    const reducedRuns = runs.map((run) => {
      const output = run.join('\n');
      const one = recognize(
        { ...input, output, exitCode: null, bytes: undefined },
        output,
        new Set([reduceGenericOutput]),
      );
      return (one && one.reduced.length < output.length ? one.reduced : output).trim();
    });
    return { reduced: reducedRuns.join('\n'), specific: true };
  }
  for (const recognizer of RECOGNIZERS) {
    if (used.has(recognizer)) continue;
    const reduced = recognizer({
      command: input.command,
      output: clean,
      lines,
      exitCode,
      budget: input.budget ?? DEFAULT_REDUCER_BUDGET,
      ...(partial === undefined ? {} : { partial }),
    });
    if (reduced === undefined) continue;
    const specific = recognizer !== reduceGenericOutput;
    const whole = specific
      ? withOtherCommands(reduced, lines, input, new Set([...used, recognizer]))
      : reduced;
    // A summary made from part of the output says so before any count it gives.
    const note =
      specific && partial !== undefined ? `[partial: ${partial}; counts below cover the rest]\n` : '';
    const verdict = specific ? withWrapperVerdict(whole, lines) : whole;
    return {
      reduced: `${note}${withCoverage(verdict, lines, input.budget ?? DEFAULT_REDUCER_BUDGET)}`,
      specific,
    };
  }
  return undefined;
}

/**
 * Shrinks one command's output to what a developer would look at. Returns the output unchanged
 * when nothing recognizes it or the reduction would not be shorter.
 */
export function reduceTerminalOutput(input: OutputToReduce): string {
  // What a terminal would show of binary output is not what it holds: carriage returns in it are bytes.
  const binary = looksBinary(input.output);
  const clean = binary ? input.output : terminalText(nulSeparatedAsLines(input.output));
  const recognized = recognize(input, binary ? undefined : clean);
  return recognized && recognized.reduced.length < clean.length ? recognized.reduced : clean;
}

/**
 * Recognizing the spilled output finds what the middle cut hid, and counts all of it. Past this
 * size only the beginning is read (recognizing takes about 0.2 s a megabyte, on the event loop);
 * the rest counts as not read.
 */
const MAX_SPILL_BYTES_TO_RECOGNIZE = 32 * 1024 * 1024;

function readStart(file: string, bytes: number): { text: string; whole: boolean } {
  const size = statSync(file).size;
  if (size <= bytes) return { text: readFileSync(file, 'utf8'), whole: true };
  const buffer = Buffer.alloc(bytes);
  const descriptor = openSync(file, 'r');
  try {
    readSync(descriptor, buffer, 0, bytes, 0);
  } finally {
    closeSync(descriptor);
  }
  return { text: buffer.toString('utf8'), whole: false };
}

/**
 * The full output from the spill file. When the spill file holds only the beginning (its limit
 * was reached, or it is too big to read), the window's tail follows it after a cut marker, so the
 * summary a runner prints at the end is still seen and the counts say they are partial.
 */
function spilledOutput(spillFile: string, capped: boolean, windowText: string, rawBytes: number): string {
  const { text, whole } = readStart(spillFile, MAX_SPILL_BYTES_TO_RECOGNIZE);
  if (whole && !capped) return text;
  const lines = windowText.split('\n');
  const marker = lines.findIndex((line) => WINDOW_CUT_LINE.test(line));
  const tail = Buffer.from(marker < 0 ? '' : lines.slice(marker + 1).join('\n'), 'utf8');
  const read = text.slice(0, text.lastIndexOf('\n') + 1);
  const missing = rawBytes - Buffer.byteLength(read);
  // The window's tail reaches back past the end of what was read: together they are the whole output.
  if (missing <= tail.length)
    return `${read}${tail.subarray(tail.length - Math.max(0, missing)).toString('utf8')}`;
  const cut = (missing - tail.length).toLocaleString('en-US');
  return `${read}[… ${cut} bytes cut from the middle; past what the spill file kept …]\n${tail.toString('utf8')}`;
}

function reduceSpilledOutput(
  spillFile: unknown,
  capped: boolean,
  windowText: string,
  rawBytes: number,
  command: string,
  exitCode: number | null,
): string | undefined {
  if (typeof spillFile !== 'string') return undefined;
  try {
    const output = spilledOutput(spillFile, capped, windowText, rawBytes);
    // The generic cut of the whole output too: its repeated lines counted, its middle's failures found.
    return recognize({ command, output, exitCode, bytes: rawBytes })?.reduced;
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
    const reduced = [
      reduceSpilledOutput(
        structured?.spillFile,
        structured?.spillCapped === true,
        parts.output,
        rawBytes,
        command,
        exitCode,
      ),
      reduceTerminalOutput({ command, output: parts.output, exitCode, bytes: rawBytes }),
    ]
      .filter((output): output is string => output !== undefined)
      .map((output) => `${parts.header}\n${output}`)
      .find((candidate) => candidate.length < text.length && Buffer.byteLength(candidate) <= rawBytes);
    if (reduced !== undefined) return withText(result, reduced);
    // NUL-separated records (`find -print0`) are sent one a line, at the same length.
    if (parts.output.includes('\u0000') && !looksBinary(parts.output))
      return withText(result, `${parts.header}\n${nulSeparatedAsLines(parts.output)}`);
    // An empty output is shown as a placeholder, which the command did not print either.
    const printed = rawBytes === 0 ? '' : parts.output;
    const complete = Buffer.byteLength(printed) === rawBytes;
    return complete && Buffer.byteLength(text) > rawBytes ? withText(result, printed) : result;
  },
};
