import { analyzeQuery, isConceptTerm } from '@quiver/text-search';

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

/** What a memory_search request looks for: its terms, and the FTS5 query that finds them. */
export interface MemoryQuery {
  /** Stems and concept tokens of the request's meaningful words. */
  terms: string[];
  /** FTS5 MATCH expression over the search columns of schema.ts. */
  match: string;
}

/**
 * The request's stems and concept tokens, ORed so a paraphrase sharing only some of them still
 * matches: in the memory's own terms and tags, and among the synonyms indexed with it. Longer
 * stems also match as prefixes ("config" finds "configur"); short ones would match too much.
 * The ranking is left to BM25 and the column weights.
 */
export function memoryQuery(query: string): MemoryQuery {
  const terms = [
    ...new Set(analyzeQuery(query, { synonymWeight: 0 }).flatMap((group) => group.map(({ term }) => term))),
  ];
  const own = terms.map((term) => `${quote(term)}${term.length >= 5 && !isConceptTerm(term) ? '*' : ''}`);
  const exact = terms.map(quote);
  const match =
    terms.length === 0
      ? ''
      : `{search_terms search_tags} : (${own.join(' OR ')}) OR {search_expansions} : (${exact.join(' OR ')})`;
  return { terms, match };
}

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
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
