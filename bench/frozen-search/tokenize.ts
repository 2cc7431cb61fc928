const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'by',
  'for',
  'from',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'this',
  'to',
  'with',
]);

/**
 * Words of a tool name or description: split on `_`, `-`, punctuation and camelCase
 * (`listPullRequests`, `HTMLPage`), lowercased, with plurals folded (`issues` → `issue`) so a
 * query need not guess the inflection. One pass over the characters: indexing 10,000 tool
 * descriptions is mostly this function.
 */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  const push = (start: number, end: number) => {
    const word = text.slice(start, end).toLowerCase();
    if (!STOP_WORDS.has(word)) words.push(stem(word));
  };
  let start = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const upper = code >= 65 && code <= 90;
    if (!upper && !isLowerOrDigit(code)) {
      if (start >= 0) push(start, index);
      start = -1;
      continue;
    }
    if (start < 0) {
      start = index;
      continue;
    }
    if (upper) {
      const previous = text.charCodeAt(index - 1);
      const afterLower = isLowerOrDigit(previous);
      const acronymEnd =
        previous >= 65 && previous <= 90 && index + 1 < text.length && isLower(text.charCodeAt(index + 1));
      if (afterLower || acronymEnd) {
        push(start, index);
        start = index;
      }
    }
  }
  if (start >= 0) push(start, text.length);
  return words;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isLowerOrDigit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us'))
    return word.slice(0, -1);
  return word;
}
