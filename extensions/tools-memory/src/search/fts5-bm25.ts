import { type ColumnWeights, SEARCH_COLUMNS, type SearchPhrase } from './search-phrase.js';
import { searchTokens } from './search-tokens.js';

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;

/** A search phrase as tokens, with the indexes (into SEARCH_COLUMNS) of the columns it may match in. */
export interface TokenPhrase {
  tokens: readonly string[];
  prefix: boolean;
  columns: readonly number[];
}

/** What BM25 needs to know of all the rows of a scope, matching or not. */
export interface CollectionStatistics {
  rows: number;
  /** Tokens in all search columns of all rows. */
  tokens: number;
  /** Rows each phrase matches, in the order of the phrases. */
  hits: readonly number[];
}

/** Phrases as tokens; a phrase without tokens matches nothing and adds nothing to a score, so it is dropped. */
export function tokenPhrases(phrases: readonly SearchPhrase[]): TokenPhrase[] {
  return phrases
    .map((phrase) => ({
      tokens: searchTokens(phrase.text),
      prefix: phrase.prefix,
      columns: phrase.columns.map((column) => SEARCH_COLUMNS.indexOf(column)),
    }))
    .filter((phrase) => phrase.tokens.length > 0);
}

function matchesAt(phrase: TokenPhrase, tokens: readonly string[], start: number): boolean {
  const last = phrase.tokens.length - 1;
  for (let offset = 0; offset <= last; offset += 1) {
    const wanted = phrase.tokens[offset] as string;
    const token = tokens[start + offset] as string;
    if (offset === last && phrase.prefix ? !token.startsWith(wanted) : token !== wanted) return false;
  }
  return true;
}

/** Instances of a phrase in one column's tokens (overlapping ones count, as in FTS5). */
export function phraseInstances(phrase: TokenPhrase, tokens: readonly string[]): number {
  let count = 0;
  for (let start = 0; start + phrase.tokens.length <= tokens.length; start += 1)
    if (matchesAt(phrase, tokens, start)) count += 1;
  return count;
}

/**
 * FTS5's bm25() for one row, computed the way fts5_aux.c does it, so a backend without FTS5
 * ranks exactly as SQLite: each phrase's frequency is the sum of its instances weighted by
 * column, the row length counts every column, IDF = ln((N - n + 0.5) / (n + 0.5)) floored at
 * 1e-6. Negative, lower is better.
 */
export function fts5Bm25(
  phrases: readonly TokenPhrase[],
  columns: readonly (readonly string[])[],
  weights: ColumnWeights,
  statistics: CollectionStatistics,
): number {
  const rowLength = columns.reduce((sum, tokens) => sum + tokens.length, 0);
  const averageLength = statistics.tokens / statistics.rows;
  let score = 0;
  for (const [index, phrase] of phrases.entries()) {
    let frequency = 0;
    for (const column of phrase.columns)
      frequency += weights[column]! * phraseInstances(phrase, columns[column] ?? []);
    const hits = statistics.hits[index] ?? 0;
    let idf = Math.log((statistics.rows - hits + 0.5) / (hits + 0.5));
    if (idf <= 0) idf = 1e-6;
    score += idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * rowLength) / averageLength)));
  }
  return -1 * score;
}
