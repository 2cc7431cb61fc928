/**
 * Lowercased words of a text: split on anything but letters and digits, on `_` and `-`, and
 * inside camelCase (`listPullRequests` → list, pull, requests; `HTMLPage` → html, page). Letters
 * of any script count. One pass over the characters: indexing 10,000 tool descriptions is mostly
 * this function.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  let previous = OTHER;
  for (let index = 0; index < text.length; index += 1) {
    const kind = kindOf(text.charCodeAt(index), text, index);
    if (kind === OTHER) {
      if (start >= 0) words.push(text.slice(start, index).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = index;
    } else if (kind === UPPER) {
      const acronymEnd =
        previous === UPPER &&
        index + 1 < text.length &&
        kindOf(text.charCodeAt(index + 1), text, index + 1) === LOWER;
      if (previous === LOWER || acronymEnd) {
        words.push(text.slice(start, index).toLowerCase());
        start = index;
      }
    }
    previous = kind;
  }
  if (start >= 0) words.push(text.slice(start).toLowerCase());
  return words;
}

const OTHER = 0;
const UPPER = 1;
/** Lowercase letters, digits and letters of scripts without case. */
const LOWER = 2;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function kindOf(code: number, text: string, index: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return LOWER;
  if (code < 128) return OTHER;
  const character = String.fromCodePoint(text.codePointAt(index) as number);
  if (!LETTER_OR_DIGIT.test(character)) return code >= 0xdc00 && code <= 0xdfff ? LOWER : OTHER;
  return character !== character.toLowerCase() ? UPPER : LOWER;
}

/**
 * Compounds written as one word in other texts: `to-do` → `todo`, `GitHub` → `github`,
 * `listPullRequests` → `listpullrequests`. ASCII only, in one pass like splitWords.
 */
export function compoundWords(text: string): string[] {
  const found: string[] = [];
  let start = -1;
  let joined = false;
  let previous = 0;
  const end = (index: number) => {
    if (start >= 0 && joined) {
      let run = text.slice(start, index);
      while (run.endsWith('-')) run = run.slice(0, -1);
      if (run.length >= 3) found.push(run.replace(/-/g, '').toLowerCase());
    }
    start = -1;
    joined = false;
  };
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const lower = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    const upper = code >= 65 && code <= 90;
    if (lower || upper) {
      if (start < 0) start = index;
      else if (upper && previous >= 97 && previous <= 122) joined = true;
      else if (previous === 45) joined = true;
    } else if (code !== 45 || start < 0) {
      end(index);
    }
    previous = code;
  }
  end(text.length);
  return found;
}
