import { filesLine, rulesLine, totalLine } from './lint-report.js';
import {
  commandWords,
  DEFAULT_REDUCER_BUDGET,
  type Recognizer,
  type RecognizerInput,
} from './reducer-input.js';

const COMPILER_COMMAND =
  /(?:^|\s|;|\/)(?:cargo|rustc|go|gcc|g\+\+|cc|c\+\+|clang|clang\+\+|make|gmake|cmake|ninja|mypy|ruff|flake8|pylint|pyright|javac|kotlinc|scalac|swiftc|mvn|mvnw|gradle|gradlew|zig|nvcc|gfortran|ghc)(?:\s|$)/;
// A compiler the list above does not name is known by its output: several `file:line[:col]: error:` lines.
const COMPILER_LINE = /^[^\s:][^:]*:\d+(?::\d+)?: (?:fatal )?(?:error|warning)\b/;
const COMPILER_LINES_FROM = 3;
// A linter's `file:line[:col] CODE message` (markdownlint's `docs/a.md:5 MD022/…`, flake8's `E501`, shellcheck's `SC2086`).
const LINT_LINE = /^[^\s:][^:]*\.\w+:\d+(?::\d+)?:? \[?[A-Z]{1,4}\d{2,4}\b/;
// javac and kotlinc name what was not found on an indented line after `cannot find symbol`.
const SYMBOL_DETAIL = /^\s+symbol:\s+(.*\S)\s*$/;
// `file:line[:col]: message`, as gcc, clang, go, mypy, ruff and flake8 print it; go vet prefixes `vet: `.
const LOCATED = /^(?:vet: )?([^\s:][^:]*:\d+(?::\d+)?):? ((?!note:)\s*\S.*)$/;
// A `note:` is context under a compiler's diagnostic, but a finding of its own when it carries a
// rule code (ShellCheck's gcc format: `a.sh:3:4: note: Double quote … [SC2086]`).
const CODED_NOTE = /^([^\s:][^:]*:\d+(?::\d+)?): (note: .*\[[A-Z]{1,4}\d{2,4}\])\s*$/;
// A headline whose location follows on a ` --> file:line:col` line: rustc, and ruff's full format.
const HEADLINE = /^(?:(?:error|warning)(?:\[\w+\])?: |[A-Z]{1,4}\d{3,4} (?:\[\*\] )?\S|invalid-syntax: )/;
const ARROW_LOCATION = /^\s*--> (\S+:\d+:\d+)/;
const LINKER = /undefined reference to|multiple definition of|ld returned \d+ exit status|^\/\S*ld: /;
const KEPT = [
  /^# \S+$/, // go: the package the errors below belong to
  // make's own verdicts (`*** [target] Error 1`, `Target 'app' not remade because of errors.`), not its directory moves.
  /^g?make(?:\[\d+\])?: (?!Entering directory|Leaving directory)/,
  LINKER,
  /^Found \d+ errors?|^Success: no issues found|^\[\*\] \d+ fixable|^Your code has been rated at /,
  /^(?:Some errors have detailed explanations|For more information about an error)/,
  // javac's count, and that it stopped listing: `100 errors`, `only showing the first 100 errors, of 120 total`.
  /^\d+ (?:errors?|warnings?)$|^only showing the first \d+/,
  /^\s+Finished /,
  // make runs anything: a test runner's verdict under it is kept rather than cut as noise.
  /\bFAIL(?:ED)?\b|^panic: |^(?:Error|ERROR)\b/,
];
const QUOTED = /`[^`]*`|'[^']*'|"[^"]*"|‘[^’]*’/g;
const FILE_OF = /^(.*?):\d+(?::\d+)?$/;
// A total the tool printed itself: `Found 3 errors in 2 files`, `10 errors`, pylint's rating.
const TOTAL =
  /^Found \d+ errors?|^\d+ (?:errors?|warnings?)$|^Your code has been rated at |^error: could not compile/;
// A diagnostic's rule or code: rustc's `error[E0308]`, `F821`, `E0602:`, gcc's `[-Wformat=]`, mypy's `[arg-type]`.
const RULE =
  /^(?:error|warning)\[(\w+)\]|^(?:(?:fatal )?(?:error|warning): |\[)?([A-Z]{1,4}\d{2,4})\b|\[(-W[\w=+-]+|[a-z]+(?:-[a-z]+)*|[A-Z]{1,4}\d{2,4})\]\s*$/;

function ruleOf(message: string): string | undefined {
  const match = RULE.exec(message.trim());
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3]);
}

// Two of a kind read better as two lines; from three on, one line listing the places is shorter.
const GROUP_FROM = 3;

/**
 * What diagnostics of one kind share: the message without quoted names, and without the symbol
 * pylint's parseable format names (`[E1101(no-member), Invoice06.render]`).
 */
function kindOf(message: string): string {
  return message.replace(QUOTED, '…').replace(/^(\[[A-Z]\d{4}\([\w-]+\), )[^\]]*\]/, '$1…]');
}

const ERROR_KIND = /^(?:fatal )?error\b|^\[?[EF]\d{3,4}\b|^error\[/;

export interface Located {
  location: string;
  message: string;
}

/** The first diagnostic of each distinct message in a kind (`unused 'a'`, `unused 'b'`), at most three. */
function firstOfEach(members: readonly Located[]): Located[] {
  const seen = new Set<string>();
  return members.filter((member) => !seen.has(member.message) && seen.add(member.message) && seen.size <= 3);
}

/** A kind of diagnostic this rare is listed as printed, when room is left, rather than grouped. */
const RARE_KIND = 10;

/**
 * Located diagnostics with the same message up to quoted names become one line listing every
 * place. While room is left under `limit`, a rare kind is listed as printed instead, and a common
 * kind's first diagnostic is shown as printed above its line (what a reader may search for whole).
 */
export function groupRepeats(
  entries: readonly (Located | string)[],
  limit: number,
  /** What the tool prints between a place and its message (tsc's pretty format: ` - `). */
  joiner = ': ',
): string[] {
  const groups = new Map<string, Located[]>();
  for (const entry of entries) {
    if (typeof entry === 'string') continue;
    const key = kindOf(entry.message);
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const asPrinted = (entry: Located) => `${entry.location}${joiner}${entry.message}`;
  // How many places each kind lists: all, unless the listing passes `limit` (then fewer, the
  // commonest kinds first: a rare kind's places are what a reader looks for).
  const shownPlaces = new Map<string, number>();
  const groupLine = (key: string, members: readonly Located[]) => {
    const first = members[0] as Located;
    const same = members.every((member) => member.message === first.message);
    const places = members.map((member) =>
      same
        ? member.location
        : `${member.location} ${(member.message.match(QUOTED) ?? []).join(' ')}`.trimEnd(),
    );
    const shown = shownPlaces.get(key) ?? places.length;
    if (shown === 0) return `${same ? first.message : key} (${members.length}×)`;
    const listed =
      shown < places.length
        ? `${places.slice(0, shown).join(', ')}, … and ${places.length - shown} more`
        : places.join(', ');
    return `${same ? first.message : key} (${members.length}×): ${listed}`;
  };
  const grouped = [...groups].filter(([, members]) => members.length >= GROUP_FROM);
  const size = (lines: readonly string[]) => lines.reduce((sum, line) => sum + line.length + 1, 0);
  const total = () =>
    size(entries.filter((entry): entry is string => typeof entry === 'string')) +
    size(
      [...groups].flatMap(([key, members]) =>
        members.length >= GROUP_FROM ? [groupLine(key, members)] : members.map(asPrinted),
      ),
    );
  const commonestFirst = [...grouped].sort((a, b) => b[1].length - a[1].length);
  // Room is left for the rare kinds whole and the first of each common kind as printed: the
  // common kinds' places are cut to what that leaves, and at least to 60% of the limit.
  const reserve = grouped.reduce(
    (sum, [key, members]) =>
      sum +
      (members.length <= RARE_KIND
        ? size(members.map(asPrinted)) - size([groupLine(key, members)])
        : size(firstOfEach(members).map(asPrinted))),
    0,
  );
  const target = Math.max(limit - reserve, limit * 0.6);
  for (const cap of [10, 5, 3, 1, 0]) {
    if (total() <= target) break;
    for (const [key, members] of commonestFirst) {
      if (members.length <= Math.max(cap * 2, 1)) continue;
      shownPlaces.set(key, cap);
      if (total() <= target) break;
    }
  }
  let used = total();
  const whole = new Set<string>();
  const firstShown = new Set<string>();
  // Errors before warnings and conventions, then the rarer kinds first.
  const rank = (members: readonly Located[]) => (ERROR_KIND.test((members[0] as Located).message) ? 0 : 1);
  const byNeed = [...grouped].sort((a, b) => rank(a[1]) - rank(b[1]) || a[1].length - b[1].length);
  for (const [key, members] of byNeed) {
    const expanded = size(members.map(asPrinted)) - size([groupLine(key, members)]);
    if (members.length <= RARE_KIND && used + expanded <= limit) {
      whole.add(key);
      used += expanded;
    } else if (used + size(firstOfEach(members).map(asPrinted)) <= limit) {
      firstShown.add(key);
      used += size(firstOfEach(members).map(asPrinted));
    }
  }
  const lines: string[] = [];
  const written = new Set<string>();
  for (const entry of entries) {
    if (typeof entry === 'string') {
      lines.push(entry);
      continue;
    }
    const key = kindOf(entry.message);
    const members = groups.get(key) ?? [entry];
    if (members.length < GROUP_FROM || whole.has(key)) lines.push(asPrinted(entry));
    else if (!written.has(key)) {
      written.add(key);
      if (firstShown.has(key)) lines.push(...firstOfEach(members).map(asPrinted));
      lines.push(groupLine(key, members));
    }
  }
  return lines;
}

/**
 * Compilers and checkers that print one located diagnostic per problem (cargo/rustc, go build and
 * vet, gcc and clang under make, mypy, ruff, flake8, pylint): every error and warning with its location,
 * the build tool's verdict, and no code frames, notes or help text. Past the budget, the commonest
 * diagnostics that differ only by a quoted name are listed once with all their places.
 */
function printsCompilerLines(lines: readonly string[]): boolean {
  let found = 0;
  for (const line of lines)
    if ((COMPILER_LINE.test(line) || LINT_LINE.test(line)) && ++found >= COMPILER_LINES_FROM) return true;
  return false;
}

export const reduceDiagnosticsOutput: Recognizer = (input: RecognizerInput) => {
  if (!COMPILER_COMMAND.test(commandWords(input.command)) && !printsCompilerLines(input.lines))
    return undefined;
  const entries: (Located | string)[] = [];
  let headline: string | undefined;
  for (const line of input.lines) {
    const symbol = SYMBOL_DETAIL.exec(line);
    const previous = entries.at(-1);
    if (symbol && previous !== undefined && typeof previous !== 'string') {
      previous.message = `${previous.message} (${symbol[1]})`;
      continue;
    }
    const located =
      CODED_NOTE.exec(line) ?? (/^\s/.test(line) || / note: /.test(line) ? null : LOCATED.exec(line));
    const arrow = ARROW_LOCATION.exec(line);
    if (HEADLINE.test(line)) {
      if (headline !== undefined) entries.push(headline);
      headline = line;
    } else if (headline !== undefined && arrow) {
      entries.push({ location: arrow[1] as string, message: headline });
      headline = undefined;
    } else if (located) {
      entries.push({ location: located[1] as string, message: located[2] as string });
    } else if (KEPT.some((pattern) => pattern.test(line))) entries.push(line);
  }
  if (headline !== undefined) entries.push(headline);
  // A make whose failing recipe printed no diagnostics (a script, a test runner) is left to the
  // readers that keep what the recipe printed.
  const diagnosed = (entry: Located | string) =>
    typeof entry !== 'string' || HEADLINE.test(entry) || LINKER.test(entry);
  if (!entries.some(diagnosed)) return undefined;
  // Each diagnostic as printed while they fit in the budget; grouped by message only past it.
  const asPrinted = entries
    .map((entry) => (typeof entry === 'string' ? entry : `${entry.location}: ${entry.message}`))
    .join('\n');
  if (asPrinted.length <= input.budget) return asPrinted;
  // Past the budget: the total, every file and rule with its count, then the diagnostics grouped
  // by message within the default budget (or the caller's, when larger).
  const located = entries.filter((entry): entry is Located => typeof entry !== 'string');
  const files = located.map((entry) => FILE_OF.exec(entry.location)?.[1] ?? entry.location);
  const header = [
    ...(entries.some((entry) => typeof entry === 'string' && TOTAL.test(entry))
      ? []
      : [totalLine(located.length, new Set(files).size, input.partial)]),
    filesLine(files, input.partial),
    ...[
      rulesLine(
        located.map((entry) => ruleOf(entry.message)),
        input.partial,
      ),
    ].filter((line): line is string => line !== undefined),
  ];
  const room = Math.max(input.budget, DEFAULT_REDUCER_BUDGET) - header.join('\n').length - 1;
  return [...header, ...groupRepeats(entries, room)].join('\n');
};
