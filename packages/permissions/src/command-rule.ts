import { specifierError } from './specifier-error.js';

/** A command specifier such as `git status:*` (prefix) or `git status --short` (exact), split into words. */
export interface CommandSpecifier {
  words: string[];
  prefix: boolean;
  /**
   * An exact specifier whose text does not split into words (`git status "x`, `ls *.ts`): only
   * a command of exactly that text matches it, as an allow granted for one whole command line.
   */
  wholeCommandOnly?: true;
}

/**
 * Parses a command specifier, or throws `config_invalid`: an unclosed quote, a backslash that
 * escapes nothing, no command at all (`:*` alone), or a `*` that is not the trailing `:*` (the
 * matcher compares words exactly, so such a star would match only itself). An exact specifier
 * that does not split into words is kept as one whole command line (`wholeCommandOnly`) unless
 * `wholeCommand` is `'refused'`: an allow matching less is safe, a deny or ask matching less is
 * not, so `checkPermissionRule` refuses it for those (the engine checks every rule it is given).
 */
export function parseCommandSpecifier(
  specifier: string,
  options: { wholeCommand?: 'allowed' | 'refused' } = {},
): CommandSpecifier {
  const trimmed = specifier.trim();
  const prefix = trimmed.endsWith(':*');
  let words: string[];
  try {
    words = splitSpecifierWords(prefix ? trimmed.slice(0, -2) : trimmed, trimmed);
  } catch (error) {
    if (!prefix && options.wholeCommand !== 'refused')
      return { words: [], prefix: false, wholeCommandOnly: true };
    throw error;
  }
  if (words.length === 0)
    throw specifierError(
      'command',
      trimmed,
      'it names no command',
      'Put the command before ":*", e.g. terminal(git status:*), or drop the parentheses for the whole tool.',
    );
  return { words, prefix };
}

/** Splits on unquoted whitespace; single and double quotes group words as in the shell. */
function splitSpecifierWords(text: string, specifier: string): string[] {
  const fail = (problem: string, fix: string) => specifierError('command', specifier, problem, fix);
  const words: string[] = [];
  let current = '';
  let started = false;
  let quote: string | undefined;
  let quoteStart = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      quoteStart = index;
      started = true;
      continue;
    }
    if (char === '\\') {
      if (index + 1 >= text.length)
        throw fail(
          'it ends with a lone backslash, which escapes nothing',
          'Drop the backslash, or quote the word.',
        );
      current += text[++index];
      started = true;
      continue;
    }
    if (char === '*')
      throw fail(
        `"*" at character ${index + 1} is not a wildcard here: only a trailing ":*" matches more`,
        `End the specifier with ":*" to match every command that starts with the words before it (e.g. rm:*), or quote a literal star: '*'.`,
      );
    if (/\s/.test(char)) {
      if (started) words.push(current);
      current = '';
      started = false;
      continue;
    }
    current += char;
    started = true;
  }
  if (quote)
    throw fail(
      `the ${quote === '"' ? 'double' : 'single'} quote at character ${quoteStart + 1} is never closed`,
      `Close the quote with ${quote}, or escape it with a backslash.`,
    );
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

/** A plain specifier (memory keys, custom subjects): exact, or a prefix ending in `:*`. */
export interface StringSpecifier {
  text: string;
  prefix: boolean;
}

/** Parses a plain specifier, or throws `config_invalid` for an empty prefix or a `*` before the end. */
export function parseStringSpecifier(specifier: string): StringSpecifier {
  const trimmed = specifier.trim();
  const prefix = trimmed.endsWith(':*');
  const text = prefix ? trimmed.slice(0, -2) : trimmed;
  if (prefix && text.trim() === '')
    throw specifierError(
      'string',
      trimmed,
      'nothing comes before ":*"',
      'Put the prefix before ":*" (e.g. notes:*), or drop the parentheses for the whole tool.',
    );
  if (text.includes('*'))
    throw specifierError(
      'string',
      trimmed,
      `"*" at character ${text.indexOf('*') + 1} is not a wildcard here: only a trailing ":*" matches more`,
      'End the specifier with ":*" to match everything that starts with the text before it.',
    );
  return { text, prefix };
}

/** The same word-boundary prefix logic for plain string specifiers (memory keys, custom subjects). */
export function matchesStringSpecifier(specifier: string | StringSpecifier, subject: string): boolean {
  const { text, prefix } = typeof specifier === 'string' ? parseStringSpecifier(specifier) : specifier;
  if (!prefix) return text === subject.trim();
  if (!subject.startsWith(text)) return false;
  const rest = subject.slice(text.length);
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
