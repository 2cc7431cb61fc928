import { groupRepeats, type Located } from './diagnostics.js';
import { PROBLEM_LINE } from './generic.js';
import { filesLine, rulesLine } from './lint-report.js';
import {
  DEFAULT_REDUCER_BUDGET,
  PROCESS_PREFIX,
  type Recognizer,
  type RecognizerInput,
  unprefixed,
  WRAPPER_NOTE,
  WRAPPER_VERDICT,
} from './reducer-input.js';

const PLAIN = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - error (TS\d+): (.*)$/;

/** Commands that run the TypeScript compiler (directly or through a script that names it). */
const TSC_COMMAND = /\b(?:tsc|tsgo|vue-tsc|svelte-check|typecheck|type-check|tsc-watch)\b/;
/** Share of an output's lines that must be diagnostics when the command does not name tsc. */
const MIN_DIAGNOSTIC_SHARE = 0.2;

const prefixOf = (line: string) => PROCESS_PREFIX.exec(line)?.[0] ?? '';

/**
 * Whether a few diagnostics sit in the log of other processes that failed too (`concurrently`
 * running tsc --watch beside a server and a worker that crashed): that is not a tsc run, and the
 * other failures matter as much, so the output is left to the reducers that keep them. A failure
 * of the process that printed the diagnostics (npm's `Lifecycle script` error under turbo) or a
 * wrapper's verdict does not count: the tsc summary keeps those.
 */
function failsElsewhere(lines: readonly string[], diagnostics: number): boolean {
  const printed = lines.filter((line) => line.trim() !== '').length;
  if (diagnostics >= printed * MIN_DIAGNOSTIC_SHARE) return false;
  const diagnosticPrefixes = new Set(
    lines.filter((line) => PLAIN.test(line) || PRETTY.test(line)).map(prefixOf),
  );
  return lines.some((line) => {
    if (diagnosticPrefixes.has(prefixOf(line)) || PLAIN.test(line) || PRETTY.test(line)) return false;
    const text = unprefixed(line);
    const wrapper = [line, text].some((form) => WRAPPER_VERDICT.test(form) || WRAPPER_NOTE.test(form));
    return PROBLEM_LINE.test(text) && !wrapper;
  });
}

/**
 * TypeScript diagnostics, plain `file(line,col): error TSnnnn` or pretty `file:line:col - error
 * TSnnnn`: every error is kept; the same code and message at several places becomes one entry
 * listing all its locations, and exact repeats (project references, watch) are folded.
 */
export const reduceTypescriptOutput: Recognizer = (input: RecognizerInput) => {
  const groups = new Map<
    string,
    { code: string; message: string; locations: Set<string>; pretty: boolean }
  >();
  const files = new Map<string, string>();
  const order: string[] = [];
  const otherErrors: string[] = [];
  let errorCount = 0;
  for (const line of input.lines) {
    const plain = PLAIN.exec(line);
    const match = plain ?? PRETTY.exec(line);
    if (!match) {
      if (/^error TS\d+:/.test(line)) otherErrors.push(line);
      continue;
    }
    const [, file, row, column, code, message] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const key = `${code} ${message}`;
    const group = groups.get(key) ?? { code, message, locations: new Set<string>(), pretty: !plain };
    // Locations stay as tsc printed them, so they can be searched for and clicked.
    const location = plain ? `${file}(${row},${column})` : `${file}:${row}:${column}`;
    group.locations.add(location);
    if (!files.has(location)) order.push(location);
    files.set(location, file);
    groups.set(key, group);
    errorCount++;
  }
  if (groups.size === 0) return undefined;
  if (!TSC_COMMAND.test(input.command) && failsElsewhere(input.lines, errorCount + otherErrors.length))
    return undefined;
  const lines: string[] = [...new Set(otherErrors)];
  for (const group of groups.values()) {
    const [first, ...rest] = [...group.locations];
    if (rest.length === 0)
      lines.push(`${first}${group.pretty ? ' -' : ':'} error ${group.code}: ${group.message}`);
    else
      lines.push(
        `error ${group.code}: ${group.message} (${rest.length + 1}×)\n  at ${[first, ...rest].join(', ')}`,
      );
  }
  const summary = input.lines.find((line) => /^Found \d+ errors?/.test(line));
  const unique = [...groups.values()].reduce((sum, group) => sum + group.locations.size, 0);
  const total =
    summary ??
    `${unique} TypeScript error${unique === 1 ? '' : 's'}${errorCount > unique ? ` (${errorCount - unique} repeats folded)` : ''}`;
  const limit = Math.max(input.budget, DEFAULT_REDUCER_BUDGET);
  if (lines.join('\n').length + total.length < limit) return [...lines, total].join('\n');
  // Past the budget: every file and code with its count, then the errors grouped by message
  // (names masked), the rarer kinds as printed and each kind's first as printed while room is left.
  const entries: Located[] = [];
  for (const group of groups.values())
    for (const location of group.locations)
      entries.push({ location, message: `error ${group.code}: ${group.message}` });
  const ordered = entries.sort((a, b) => order.indexOf(a.location) - order.indexOf(b.location));
  const compact = [
    ...new Set(otherErrors),
    total,
    filesLine(
      ordered.map((entry) => files.get(entry.location) ?? ''),
      input.partial,
    ),
    rulesLine(
      ordered.map((entry) => /TS\d+/.exec(entry.message)?.[0]),
      input.partial,
    ) as string,
  ];
  const size = compact.reduce((sum, line) => sum + line.length + 1, 0);
  const pretty = [...groups.values()].some((group) => group.pretty);
  return [...compact, ...groupRepeats(ordered, limit - size, pretty ? ' - ' : ': ')].join('\n');
};
