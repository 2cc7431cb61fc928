import { commandsIn, WRAPPER_VERDICT, withoutQuotes } from './reducer-input.js';

/**
 * Outputs of compound command lines (`npm ci && npm test`, `tsc; vitest run`, `make lint test`, a
 * `for` loop running scripts): which parts of the output each command printed.
 */

/**
 * Whether the output may hold several commands' output: a compound command line, or a script an
 * npm-style runner announced as one (`> tsc --noEmit && vitest run`).
 */
export function runsSeveral(command: string, lines: readonly string[]): boolean {
  if (commandsIn(command) >= 2) return true;
  // `make lint test`: one recipe after another.
  const goals = /^\s*g?make\s+(.*)$/
    .exec(command)?.[1]
    ?.split(/\s+/)
    .filter((word) => /^[\w.-]+$/.test(word));
  if (goals !== undefined && goals.length >= 2) return true;
  return lines.some((line) => {
    const script = /^> (.+)$/.exec(line);
    return (
      script !== null && !/^\S+@\S+ \S+$/.test(script[1] as string) && commandsIn(script[1] as string) >= 2
    );
  });
}

/**
 * The exit code as the recognized command's own: unknown (null) when the command line ran
 * something after it whose code it is (`pytest | tail -40`, `vitest run; echo done`, `make || true`).
 * With `&&` alone, 0 still means every command succeeded.
 */
export function ownExitCode(command: string, exitCode: number | null): number | null {
  return /;|\|\||\n|(?:^|[^|>&])\|(?!\|)/.test(withoutQuotes(command)) ? null : exitCode;
}

/** The banner npm, pnpm and yarn print as a script starts: `> pkg-a@1.0.0 test`. */
const SCRIPT_BANNER = /^> \S+@\S+ \S+/;

/**
 * The runs of a command line that ran scripts one after another, each from its banner on, or
 * undefined when it ran fewer than two.
 */
export function scriptRuns(command: string, lines: readonly string[]): string[][] | undefined {
  const starts = lines.flatMap((line, index) => (SCRIPT_BANNER.test(line) ? [index] : []));
  if (starts.length < 2 || !runsSeveral(command, lines)) return undefined;
  const bounds = [0, ...starts.filter((start) => start > 0), lines.length];
  const runs = bounds
    .slice(0, -1)
    .map((start, index) => lines.slice(start, bounds[index + 1]))
    .filter((run) => run.some((line) => line.trim() !== ''));
  return runs.length >= 2 ? runs : undefined;
}

/** Lines shorter than this say too little to tell which command printed them. */
const MIN_EVIDENCE_CHARS = 12;

/** The lines printed before and after a recognized command's output, with the exit codes they ran under. */
export interface OtherCommandsParts {
  before: { lines: string[]; exitCode: number | null } | undefined;
  after: { lines: string[]; exitCode: number | null } | undefined;
}

/**
 * The output of the other commands of a compound command line, around what a recognizer read.
 * The lines a reduction kept word for word show where the recognized command's output lies; what
 * comes before its first such line and after its last was printed by the commands run before and
 * after it (a lint run before the tests), and is to be reduced on its own instead of being dropped.
 * Undefined when the command line ran one command or the reduction shows none of its lines.
 */
export function otherCommandsParts(
  reduced: string,
  lines: readonly string[],
  command: string,
  exitCode: number | null,
): OtherCommandsParts | undefined {
  if (!runsSeveral(command, lines)) return undefined;
  // A line the reduction kept, or folded (`error TS2322 … (4×) at a.ts(2,3), …`): most of its
  // words are in the reduction.
  const words = (line: string) => line.match(/[\p{L}\p{N}][\p{L}\p{N}_]{3,}/gu) ?? [];
  const reducedWords = new Set(words(reduced));
  const evidence = (line: string) => {
    // A summary ruled off on both sides (`===== 3 failed in 0.9s =====`) without its rulers.
    const text = line.trim().replace(/^[=_*-]{3,}\s*|\s*[=_*-]{3,}$/g, '');
    // A wrapper's verdict (`make: *** … Error 1`) is kept under any summary: it says nothing of
    // which command printed the lines around it.
    // A bare `FAIL …` line (a test program run by make) is kept by several reducers wherever it
    // stands, so it says nothing of where the recognized output lies either.
    if (text.length < MIN_EVIDENCE_CHARS || WRAPPER_VERDICT.test(text) || /^FAIL\s/.test(text)) return false;
    const own = words(text);
    // A line of few words (`E   AssertionError: -1 != 2`, `3 failed, 2 passed`, which any test
    // runner could print) counts only when kept as printed.
    if (own.length < 3) return reduced.includes(text.replace(/^[EF>]\s+/, ''));
    return own.filter((word) => reducedWords.has(word)).length >= own.length * 0.8;
  };
  const first = lines.findIndex(evidence);
  if (first < 0) return undefined;
  const last = lines.findLastIndex(evidence);
  // The exit code is the last command's: the part after is the last command's, and with `&&`
  // between them the commands before it exited 0.
  const chained = !/\|\||;|\n/.test(withoutQuotes(command));
  const part = (printed: readonly string[], code: number | null) => {
    // Lines the reduction shows already (a summary's `# todo 0` printed twice) are not repeated.
    const kept = printed.filter((line) => line.trim() === '' || !reduced.includes(line.trim()));
    return kept.some((line) => line.trim() !== '') ? { lines: kept, exitCode: code } : undefined;
  };
  return {
    before: part(lines.slice(0, first), chained ? 0 : null),
    after: part(lines.slice(last + 1), exitCode),
  };
}
