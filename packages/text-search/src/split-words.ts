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
        previous === UPPER && index + 1 < text.length && kindOf(text.charCodeAt(index + 1), text, index + 1) === LOWER;
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
