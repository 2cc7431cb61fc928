const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'by', 'for', 'from', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'this', 'to', 'with']);

/**
 * Words of a tool name or description: split on `_`, `-`, punctuation and camelCase, lowercased,
 * with plurals folded (`issues` → `issue`) so a query need not guess the inflection.
 */
export function tokenize(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const words: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length === 0 || STOP_WORDS.has(raw)) continue;
    words.push(stem(raw));
  }
  return words;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}
