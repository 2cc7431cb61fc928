import { analyzeQuery, isConceptTerm } from '@quiver/text-search';
import type { SearchPhrase } from './search/search-phrase.js';

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

/** What a memory_search request looks for: its terms, and the phrases that find them. */
export interface MemoryQuery {
  /** Stems and concept tokens of the request's meaningful words. */
  terms: string[];
  /** Phrases over the search columns of schema.ts, any of which makes a memory match. */
  phrases: SearchPhrase[];
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
  const own = terms.map(
    (term): SearchPhrase => ({
      text: term,
      prefix: term.length >= 5 && !isConceptTerm(term),
      columns: ['search_terms', 'search_tags'],
    }),
  );
  const exact = terms.map(
    (term): SearchPhrase => ({ text: term, prefix: false, columns: ['search_expansions'] }),
  );
  return { terms, phrases: [...own, ...exact] };
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
