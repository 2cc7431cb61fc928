/** The analysed columns a memory is searched in (schema.ts), in index order. */
export const SEARCH_COLUMNS = ['search_terms', 'search_tags', 'search_expansions'] as const;

export type SearchColumn = (typeof SEARCH_COLUMNS)[number];

/**
 * One phrase of a search, as FTS5 understands `{columns} : "text"*`: the tokens of `text` in a
 * row, consecutive and within one of `columns`; with `prefix`, the last token may be longer.
 */
export interface SearchPhrase {
  text: string;
  prefix: boolean;
  columns: readonly SearchColumn[];
}

/** BM25 weight of each column of SEARCH_COLUMNS, in that order. */
export type ColumnWeights = readonly [number, number, number];

/** FTS5's own default: every column weighs 1. */
export const EQUAL_WEIGHTS: ColumnWeights = [1, 1, 1];

/**
 * Text terms weigh 1, tags 2 (a tag is a deliberate keyword, a word in the text may be
 * incidental), synonyms indexed with the memory 0.3: they find paraphrases without outranking
 * the words themselves.
 */
export const SEARCH_WEIGHTS: ColumnWeights = [1, 2, 0.3];
