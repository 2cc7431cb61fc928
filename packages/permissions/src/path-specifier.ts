import picomatch from 'picomatch';
import { specifierError } from './specifier-error.js';

/**
 * A path specifier as the matcher reads it: `secrets` (that path and all below it), `src/**`,
 * `**\/*.{key,pem}`, `~/.ssh/**`, `/tmp/**`. Parsed once, by this module only, whether the rule
 * is being checked at load or compiled for a decision, so the two cannot disagree.
 */
export interface PathSpecifier {
  /** As written, trimmed, without trailing slashes. */
  text: string;
  /** True when some part is a glob (`*`, `?`, `[…]`, `{…}`, `(…)`). */
  glob: boolean;
  /** A plain path: the specifier with escapes removed. Only meaningful when `glob` is false. */
  literal: string;
  /**
   * The leading segments without glob characters, escapes removed (`src` of `src/**`, `/` of
   * `/**`); empty for a floating pattern such as `**\/.env` that may match below any directory.
   */
  base: string;
  /** The segments from the first glob on, as picomatch reads them (escapes kept). */
  pattern: string;
}

const GLOB_START = new Set(['*', '?', '[', '{', '(']);
const ESCAPE_FIX = 'escape it with a backslash to mean the character itself';

/** Parses a path specifier, or throws `config_invalid` saying what does not parse and how to write it. */
export function parsePathSpecifier(specifier: string): PathSpecifier {
  const text = specifier.trim().replace(/\/+$/, '') || '/';
  const fail = (problem: string, fix: string) => specifierError('path', text, problem, fix);
  if ([...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    throw fail('it contains a control character', 'Write the path on one line, without control characters.');
  if (/^!(?!\()/.test(text))
    throw fail(
      'a leading "!" negates the pattern, which rules do not support',
      'Write the rule for the paths it should cover; put exceptions in allow or ask rules.',
    );
  if (/^~[^/]/.test(text))
    throw fail(
      `"${text.split('/')[0]}" is not expanded (only "~/" means your home directory)`,
      'Write the absolute path, or ./ before a file name that starts with "~".',
    );
  checkStructure(text, fail);

  const segments = splitSegments(text);
  const firstGlob = segments.findIndex((segment) => hasGlob(segment));
  const glob = firstGlob !== -1;
  let base = '';
  let pattern = text;
  if (glob) {
    const absolute = text.startsWith('/');
    const leading = segments.slice(0, firstGlob).filter((segment, index) => index > 0 || segment !== '.');
    base = leading.map(unescaped).join('/');
    if (absolute && base === '') base = '/';
    else if (absolute && !base.startsWith('/')) base = `/${base}`;
    pattern = segments.slice(firstGlob).join('/');
    try {
      picomatch.makeRe(pattern, { dot: true, strictBrackets: true, debug: true });
    } catch (error) {
      throw fail(
        `the glob "${pattern}" is not valid: ${(error as Error).message}`,
        'Correct the glob; a character class lists characters or ranges in order, e.g. [a-z].',
      );
    }
  }
  return { text, glob, literal: unescaped(text), base, pattern };
}

/** `path` with every glob character escaped, for a real directory joined to a rule's glob. */
export function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@$]/g, '\\$&');
}

type Fail = (problem: string, fix: string) => Error;

/** Brackets, braces and parentheses must balance; escapes must escape something; no variables. */
function checkStructure(text: string, fail: Fail): void {
  const open: Array<{ char: '{' | '('; index: number }> = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '\\') {
      if (index === text.length - 1)
        throw fail(
          'it ends with a lone backslash, which escapes nothing',
          'Drop it, or write \\\\ for a backslash.',
        );
      index++;
      continue;
    }
    if (char === '$')
      throw fail(
        `"$" is not expanded: rules do not read environment variables`,
        `Write the path itself (~/ for your home directory), or ${ESCAPE_FIX}: \\$.`,
      );
    if (char === '[') {
      index = closeBracket(text, index, fail);
      continue;
    }
    if (char === ']')
      throw fail(
        `"]" at character ${index + 1} closes no "["`,
        `Add the missing "[", or ${ESCAPE_FIX}: \\].`,
      );
    if (char === '{' || char === '(') open.push({ char, index });
    if (char === '}' || char === ')') {
      const expected = char === '}' ? '{' : '(';
      const last = open.pop();
      if (last === undefined || last.char !== expected)
        throw fail(
          `"${char}" at character ${index + 1} closes no "${expected}"`,
          `Add the missing "${expected}", or ${ESCAPE_FIX}: \\${char}.`,
        );
    }
  }
  const unclosed = open.pop();
  if (unclosed !== undefined) {
    const close = unclosed.char === '{' ? '}' : ')';
    throw fail(
      `"${unclosed.char}" at character ${unclosed.index + 1} is never closed`,
      unclosed.char === '{'
        ? `Close the alternatives with "}" (e.g. *.{key,pem}), or ${ESCAPE_FIX}: \\{.`
        : `Close it with "${close}", or ${ESCAPE_FIX}: \\(.`,
    );
  }
}

/** The index of the `]` closing the character class opened at `start`. */
function closeBracket(text: string, start: number, fail: Fail): number {
  let index = start + 1;
  if (text[index] === '!' || text[index] === '^') index++;
  const first = index;
  for (; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === '[' && text[index + 1] === ':') {
      const end = text.indexOf(':]', index + 2);
      if (end !== -1) {
        index = end + 1;
        continue;
      }
    }
    if (char === '/') break;
    if (char === ']') {
      if (index === first)
        throw fail(
          `the character class at character ${start + 1} is empty`,
          `List at least one character between "[" and "]", or ${ESCAPE_FIX}: \\[.`,
        );
      return index;
    }
  }
  throw fail(
    `"[" at character ${start + 1} is never closed`,
    `Close the character class with "]" (e.g. [0-9]), or ${ESCAPE_FIX}: \\[.`,
  );
}

/** Splits on `/` that no backslash escapes. */
function splitSegments(text: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '\\') {
      current += char + (text[index + 1] ?? '');
      index++;
    } else if (char === '/') {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments;
}

function hasGlob(segment: string): boolean {
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index] as string;
    if (char === '\\') index++;
    else if (GLOB_START.has(char)) return true;
  }
  return false;
}

function unescaped(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}
