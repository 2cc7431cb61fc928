// Words that carry no meaning for recall; dropped from search queries (not from the index), so
// "what does the user like" searches for "user like".
const STOPWORDS = new Set(
  `a an and are as at be been but by can could did do does for from had has have how i if in into is it its
  me my of on or our she he should so than that the their them then there these they this to was we were what
  when where which who whom why will with would you your about any all also just more most some such very`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lowercased words of letters and digits (any script). */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The form two saves are compared in: case, punctuation and spacing do not matter. */
export function normalizeMemoryText(text: string): string {
  return words(text).join(' ');
}

/** |A ∩ B| / |A ∪ B| over the sets of words. */
export function tokenJaccard(a: string, b: string): number {
  const left = new Set(words(a));
  const right = new Set(words(b));
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}

export function searchTerms(query: string): string[] {
  const all = [...new Set(words(query))];
  const meaningful = all.filter((word) => !STOPWORDS.has(word) && word.length > 1);
  return meaningful.length > 0 ? meaningful : all;
}

/**
 * An FTS5 query that ORs the terms so that a paraphrase sharing only some words still matches,
 * leaving the ranking to BM25. Longer terms also match as prefixes ("config" finds
 * "configuration"); short ones would match too much.
 */
export function ftsQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '""')}"${term.length >= 4 ? '*' : ''}`).join(' OR ');
}

export function normalizeTags(tags: readonly string[]): string[] {
  return [
    ...new Set(
      tags
        .map((tag) => tag.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, '-'))
        .filter((tag) => tag.length > 0),
    ),
  ];
}
