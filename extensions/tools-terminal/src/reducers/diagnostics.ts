import { commandWords, type Recognizer, type RecognizerInput } from './reducer-input.js';

const COMPILER_COMMAND =
  /(?:^|\s|;|\/)(?:cargo|rustc|go|gcc|g\+\+|cc|c\+\+|clang|clang\+\+|make|gmake|cmake|ninja|mypy|ruff|flake8|pyright)(?:\s|$)/;
// `file:line[:col]: message`, as gcc, clang, go, mypy, ruff and flake8 print it; go vet prefixes `vet: `.
const LOCATED = /^(?:vet: )?[^\s:][^:]*:\d+(?::\d+)?:? (?!note:)(?:\s*\S)/;
const RUST_HEADLINE = /^(?:error|warning)(?:\[\w+\])?: /;
const RUST_LOCATION = /^\s*--> \S+:\d+:\d+/;
const KEPT = [
  /^# \S+$/, // go: the package the errors below belong to
  /^make(?:\[\d+\])?: \*\*\* /,
  /undefined reference to|multiple definition of|ld returned \d+ exit status|^\/\S*ld: /,
  /^Found \d+ errors? in \d+ files?|^Success: no issues found/,
  /^(?:Some errors have detailed explanations|For more information about an error)/,
  /^\s+Finished /,
];

/**
 * Compilers and checkers that print one located diagnostic per problem (cargo/rustc, go build and
 * vet, gcc and clang under make, mypy, ruff, flake8): every error and warning with its location,
 * the build tool's verdict, and no code frames, notes or help text.
 */
export const reduceDiagnosticsOutput: Recognizer = (input: RecognizerInput) => {
  if (!COMPILER_COMMAND.test(commandWords(input.command))) return undefined;
  const kept: string[] = [];
  let rustLocationWanted = false;
  for (const line of input.lines) {
    if (RUST_HEADLINE.test(line)) {
      kept.push(line);
      rustLocationWanted = true;
    } else if (rustLocationWanted && RUST_LOCATION.test(line)) {
      kept.push(line);
      rustLocationWanted = false;
    } else if (/^\s*(?:\d+\s*)?\|/.test(line)) {
      // a code frame
    } else if (LOCATED.test(line) && !/: note: /.test(line) && !/^\s/.test(line)) {
      kept.push(line);
    } else if (KEPT.some((pattern) => pattern.test(line))) kept.push(line);
  }
  const diagnostics = kept.filter((line) => LOCATED.test(line) || RUST_HEADLINE.test(line) || /^make/.test(line));
  if (diagnostics.length === 0) return undefined;
  return kept.join('\n');
};
