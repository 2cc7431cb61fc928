/**
 * What every recognizer sees: the command line, its output (ANSI codes removed), its exit code and
 * the budget in characters. The budget bounds what is optional (diff hunks, passing details);
 * the facts a developer needs (failing tests, errors, changed files) are kept beyond it.
 */
export interface RecognizerInput {
  command: string;
  output: string;
  lines: readonly string[];
  exitCode: number | null;
  budget: number;
  /**
   * Set when part of the output never reached the recognizer (the middle cut by the terminal's
   * window, or the end past the spill limit): says what is missing, for counts that must say so.
   */
  partial?: string;
}

/** What a reduced output aims at when the caller gives no budget. */
export const DEFAULT_REDUCER_BUDGET = 4_000;

/** Returns the reduced output, or undefined when the output is not its kind. */
export type Recognizer = (input: RecognizerInput) => string | undefined;

// CSI sequences (colors, cursor moves) and OSC sequences (hyperlinks, titles).
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}

/**
 * What a terminal would show of an output: colour and cursor codes removed, CRLF line ends made
 * LF, and each line that a progress display rewrote with carriage returns reduced to its final
 * state (the last part after a `\r` that is not blank: `Receiving objects: 100% (128/128), done.`,
 * not the hundred states before it).
 */
export function terminalText(text: string): string {
  const plain = stripAnsi(text).replace(/\r+\n/g, '\n');
  if (!plain.includes('\r')) return plain;
  return plain
    .split('\n')
    .map((line) => {
      if (!line.includes('\r')) return line;
      const states = line.split('\r');
      for (let index = states.length - 1; index >= 0; index--)
        if ((states[index] as string).trim() !== '') return (states[index] as string).trimEnd();
      return '';
    })
    .join('\n');
}

/** "a, b, c … and 12 more" */
export function listWithLimit(items: readonly string[], limit: number, separator = ', '): string {
  if (items.length <= limit) return items.join(separator);
  return `${items.slice(0, limit).join(separator)}${separator}… and ${items.length - limit} more`;
}

/** The command without leading `cd dir &&`, env assignments and `npx`/`pnpm exec` wrappers. */
export function commandWords(command: string): string {
  return command
    .split(/&&|;|\|\|/)
    .map((part) => part.trim())
    .filter((part) => !/^cd\s/.test(part))
    .join(' ; ')
    .replace(/(^|\s)[A-Z_][A-Z0-9_]*=\S*\s+/g, '$1');
}

/** The marker the terminal's window puts where it cut the middle of an output. */
export const WINDOW_CUT_LINE = /^\[… ([\d,]+) bytes cut from the middle; .*…\]$/;

/** `16 files` when the output is whole; `at least 16 files` when part of it was not read. */
/** `1 file`, `1,204 files`. */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

export function counted(count: number, noun: string, partial: string | undefined): string {
  const phrase = plural(count, noun);
  return partial === undefined ? phrase : `at least ${phrase}`;
}

/**
 * The first and last of `lines`, taken alternately (`headPerTail` from the start for each one from
 * the end, each as `clip` makes it) while they fit in `room` characters; with `atLeastTwo`, one
 * from each end even when they do not.
 */
export function endsThatFit(
  lines: readonly string[],
  room: number,
  options: { headPerTail?: number; clip?: (line: string) => string; atLeastTwo?: boolean } = {},
): { head: string[]; tail: string[]; hidden: number } {
  const { headPerTail = 1, clip, atLeastTwo = false } = options;
  const head: string[] = [];
  const tail: string[] = [];
  let spent = 0;
  for (let i = 0, j = lines.length - 1; i <= j; ) {
    const fromHead = head.length <= tail.length * headPerTail;
    const raw = lines[fromHead ? i : j] as string;
    const line = clip ? clip(raw) : raw;
    if ((!atLeastTwo || head.length + tail.length >= 2) && spent + line.length + 1 > room) break;
    if (fromHead) {
      head.push(line);
      i++;
    } else {
      tail.unshift(line);
      j--;
    }
    spent += line.length + 1;
  }
  return { head, tail, hidden: lines.length - head.length - tail.length };
}

/**
 * The first and last of `lines` as `label` and a marker for what lies between (see endsThatFit);
 * at least one from each end.
 */
export function firstAndLast(
  lines: readonly string[],
  room: number,
  label: string,
  noun: string,
  headPerTail = 1,
): string[] {
  const { head, tail, hidden } = endsThatFit(lines, room, { headPerTail, atLeastTwo: true });
  return [label, ...head, ...(hidden > 0 ? [`[… ${plural(hidden, noun)} between not shown]`] : []), ...tail];
}

/** How often each value occurs, the commonest first (`undefined` is not counted). */
export function countsOf(values: readonly (string | undefined)[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

/**
 * The verdict of a tool that ran the recognized one (make, `pnpm -r`, npm and yarn scripts,
 * turbo): which target or package failed. Kept under any specific summary that left it out.
 */
export const WRAPPER_VERDICT =
  /^g?make(?:\[\d+\])?: \*\*\* |ERR_PNPM_[A-Z_]+|^Summary: \d+ fails?, \d+ pass|^npm (?:ERR!|error) (?:code |Lifecycle |command failed)|\bELIFECYCLE\b|^error Command failed with exit code \d+|^\s*Failed:\s+\S+#\S+|^\s*ERROR\s+run failed:|^ERROR: command finished with error|^\s*Tasks:\s+\d+ successful, \d+ total|#\S+:\s+ERROR\s+command |^(?:CLI|ESM|CJS|IIFE|DTS) (?:⚡️ )?Build (?:success|failed)|^Error: |^ERROR: Coverage for \w+ \([\d.]+%\) does not meet|^Jest: "global" coverage threshold for \w+ \([\d.]+%\) not met/;
/** A wrapper's lesser lines (what it ran, what it warns of): kept after its verdicts while room is left. */
export const WRAPPER_NOTE =
  /^\s*• Running \S+ in \d+ packages|^\s*WARNING\s+\S|^(?:CLI|ESM|CJS|IIFE|DTS) Build start/;
/**
 * The name a process runner puts before each line of the process it ran: `[web] ` (concurrently),
 * `web-1  | ` (docker compose), `@shop/api:build: ` and `@shop/api#build: ` (turbo).
 */
export const PROCESS_PREFIX =
  /^(?:\[[\w.:@/-]{1,40}\] |[\w.-]{1,40}\s*\| |@?[\w./-]{1,60}[:#][\w:-]{1,40}: )/;

/** A line without the process runner's name before it. */
export function unprefixed(line: string): string {
  return line.replace(PROCESS_PREFIX, '');
}

/**
 * Commands that print nothing a reducer reads, or one line of their own (`echo "exit=$?"`): a
 * command line of one command and these is not read part by part.
 */
const QUIET_COMMAND =
  /^(?:cd|export|set|source|\.|echo|printf|true|false|exit|sleep|:|unset|pushd|popd|wait)(?:\s|$)/;

/** A command line with its quoted strings emptied, so that `;` or `|` inside quotes is not an operator. */
export function withoutQuotes(command: string): string {
  return command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
}

/** Commands run one after another (`npm run lint && npm test`, `cargo build; cargo test`), not counting `cd`, `export`, `set`. */
export function commandsIn(command: string): number {
  return withoutQuotes(command)
    .split(/&&|\|\||;|\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '' && !QUIET_COMMAND.test(part)).length;
}
