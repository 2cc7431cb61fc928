import { commandWords, type Recognizer, type RecognizerInput } from './reducer-input.js';

const COMPILER_COMMAND =
  /(?:^|\s|;|\/)(?:cargo|rustc|go|gcc|g\+\+|cc|c\+\+|clang|clang\+\+|make|gmake|cmake|ninja|mypy|ruff|flake8|pyright|javac|kotlinc|scalac|swiftc|mvn|mvnw|gradle|gradlew|zig|nvcc|gfortran|ghc)(?:\s|$)/;
// A compiler the list above does not name is known by its output: several `file:line[:col]: error:` lines.
const COMPILER_LINE = /^[^\s:][^:]*:\d+(?::\d+)?: (?:fatal )?(?:error|warning)\b/;
const COMPILER_LINES_FROM = 3;
// A linter's `file:line[:col] CODE message` (markdownlint's `docs/a.md:5 MD022/…`, flake8's `E501`, shellcheck's `SC2086`).
const LINT_LINE = /^[^\s:][^:]*\.\w+:\d+(?::\d+)?:? [A-Z]{1,4}\d{2,4}\b/;
// javac and kotlinc name what was not found on an indented line after `cannot find symbol`.
const SYMBOL_DETAIL = /^\s+symbol:\s+(.*\S)\s*$/;
// `file:line[:col]: message`, as gcc, clang, go, mypy, ruff and flake8 print it; go vet prefixes `vet: `.
const LOCATED = /^(?:vet: )?([^\s:][^:]*:\d+(?::\d+)?):? ((?!note:)\s*\S.*)$/;
// A headline whose location follows on a ` --> file:line:col` line: rustc, and ruff's full format.
const HEADLINE = /^(?:(?:error|warning)(?:\[\w+\])?: |[A-Z]{1,4}\d{3,4} (?:\[\*\] )?\S|invalid-syntax: )/;
const ARROW_LOCATION = /^\s*--> (\S+:\d+:\d+)/;
const KEPT = [
  /^# \S+$/, // go: the package the errors below belong to
  // make's own verdicts (`*** [target] Error 1`, `Target 'app' not remade because of errors.`), not its directory moves.
  /^g?make(?:\[\d+\])?: (?!Entering directory|Leaving directory)/,
  /undefined reference to|multiple definition of|ld returned \d+ exit status|^\/\S*ld: /,
  /^Found \d+ errors?|^Success: no issues found|^\[\*\] \d+ fixable/,
  /^(?:Some errors have detailed explanations|For more information about an error)/,
  // javac's count, and that it stopped listing: `100 errors`, `only showing the first 100 errors, of 120 total`.
  /^\d+ (?:errors?|warnings?)$|^only showing the first \d+/,
  /^\s+Finished /,
  // make runs anything: a test runner's verdict under it is kept rather than cut as noise.
  /\bFAIL(?:ED)?\b|^panic: |^(?:Error|ERROR)\b/,
];
const QUOTED = /`[^`]*`|'[^']*'|"[^"]*"|‘[^’]*’/g;
// Two of a kind read better as two lines; from three on, one line listing the places is shorter.
const GROUP_FROM = 3;

interface Located {
  location: string;
  message: string;
}

/** Located diagnostics with the same message up to quoted names become one line listing every place. */
function groupRepeats(entries: readonly (Located | string)[]): string[] {
  const groups = new Map<string, Located[]>();
  for (const entry of entries) {
    if (typeof entry === 'string') continue;
    const key = entry.message.replace(QUOTED, '…');
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const lines: string[] = [];
  const written = new Set<string>();
  for (const entry of entries) {
    if (typeof entry === 'string') {
      lines.push(entry);
      continue;
    }
    const key = entry.message.replace(QUOTED, '…');
    const members = groups.get(key) ?? [entry];
    if (members.length < GROUP_FROM) lines.push(`${entry.location}: ${entry.message}`);
    else if (!written.has(key)) {
      written.add(key);
      const same = members.every((member) => member.message === entry.message);
      const places = members.map((member) =>
        same ? member.location : `${member.location} ${(member.message.match(QUOTED) ?? []).join(' ')}`,
      );
      lines.push(`${same ? entry.message : key} (${members.length}×): ${places.join(', ')}`);
    }
  }
  return lines;
}

/**
 * Compilers and checkers that print one located diagnostic per problem (cargo/rustc, go build and
 * vet, gcc and clang under make, mypy, ruff, flake8): every error and warning with its location,
 * the build tool's verdict, and no code frames, notes or help text. Past the budget, diagnostics
 * that differ only by a quoted name are listed once with all their places.
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
    const located = /^\s/.test(line) || / note: /.test(line) ? null : LOCATED.exec(line);
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
  const diagnostics = entries.filter(
    (entry) => typeof entry !== 'string' || HEADLINE.test(entry) || /^make/.test(entry),
  );
  if (diagnostics.length === 0) return undefined;
  // Each diagnostic as printed while they fit in the budget; grouped by message only past it.
  const asPrinted = entries
    .map((entry) => (typeof entry === 'string' ? entry : `${entry.location}: ${entry.message}`))
    .join('\n');
  return asPrinted.length <= input.budget ? asPrinted : groupRepeats(entries).join('\n');
};
