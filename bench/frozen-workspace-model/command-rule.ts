/** A command specifier such as `git status:*` (prefix) or `git status --short` (exact), split into words. */
export interface CommandSpecifier {
  words: string[];
  prefix: boolean;
}

export function parseCommandSpecifier(specifier: string): CommandSpecifier {
  const trimmed = specifier.trim();
  const prefix = trimmed.endsWith(':*');
  return { words: splitSpecifierWords(prefix ? trimmed.slice(0, -2) : trimmed), prefix };
}

/** Splits on unquoted whitespace; single and double quotes group words as in the shell. */
function splitSpecifierWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let started = false;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      started = true;
      continue;
    }
    if (char === '\\' && index + 1 < text.length) {
      current += text[++index];
      started = true;
      continue;
    }
    if (/\s/.test(char)) {
      if (started) words.push(current);
      current = '';
      started = false;
      continue;
    }
    current += char;
    started = true;
  }
  if (started) words.push(current);
  return words;
}

/**
 * True when `argv` is allowed by a command specifier. `prefix:*` must match whole leading
 * words, except that its last word may continue after a `:` (`npm run test:*` matches
 * `npm run test:unit`). Other boundaries such as `-` or `.` are refused on purpose:
 * `npm run test-and-publish` and `git status-x` (a `git-status-x` program) are different
 * commands. The program name itself must match exactly. A specifier without `:*` matches
 * only the exact argv.
 */
export function matchesCommandPrefix(specifier: string | CommandSpecifier, argv: readonly string[]): boolean {
  const { words, prefix } = typeof specifier === 'string' ? parseCommandSpecifier(specifier) : specifier;
  if (words.length === 0) return false;
  if (!prefix) return words.length === argv.length && words.every((word, index) => argv[index] === word);
  if (argv.length < words.length) return false;
  const last = words.length - 1;
  for (let index = 0; index < last; index++) {
    if (argv[index] !== words[index]) return false;
  }
  const expected = words[last] as string;
  const actual = argv[last] as string;
  if (actual === expected) return true;
  return last > 0 && expected !== '' && actual.startsWith(`${expected}:`);
}

/** The same word-boundary prefix logic for plain string specifiers (memory keys, custom subjects). */
export function matchesStringSpecifier(specifier: string, subject: string): boolean {
  const trimmed = specifier.trim();
  if (!trimmed.endsWith(':*')) return trimmed === subject.trim();
  const prefix = trimmed.slice(0, -2);
  if (!subject.startsWith(prefix)) return false;
  const rest = subject.slice(prefix.length);
  return rest === '' || /^[^A-Za-z0-9_-]/.test(rest);
}

/** Collapses runs of spaces and tabs; newlines stay, since they separate commands. */
export function normalizeCommandText(command: string): string {
  return command
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .trim();
}
