import type { TokenPhrase } from './fts5-bm25.js';
import { searchTokens } from './search-tokens.js';

/** tsvector weights standing for the search columns, in SEARCH_COLUMNS order. */
const COLUMN_WEIGHTS = ['A', 'B', 'C'] as const;

/** PostgreSQL refuses longer lexemes (in bytes) in a tsvector or tsquery. */
const MAX_LEXEME_BYTES = 2046;

/**
 * Whether PostgreSQL can index a token. A longer one (a pasted blob without spaces) is left out
 * of the tsvector — the row still counts its length — and a phrase holding one matches nothing.
 */
export function fitsLexeme(token: string): boolean {
  return Buffer.byteLength(token, 'utf8') <= MAX_LEXEME_BYTES;
}

function lexeme(token: string): string {
  return `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The tsvector of a memory's search columns, built from searchTokens rather than a text search
 * configuration so PostgreSQL indexes exactly the tokens SQLite's FTS5 does. Each column's
 * positions carry its weight (A terms, B tags, C synonyms), and a gap between columns keeps a
 * phrase from matching across two of them. PostgreSQL caps positions at 16,383.
 */
export function postgresSearchVector(columns: readonly string[]): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  for (const [index, text] of columns.entries()) {
    for (const token of searchTokens(text)) {
      position += 1;
      if (!fitsLexeme(token)) continue;
      const list = positions.get(token) ?? [];
      list.push(`${Math.min(position, 16_383)}${COLUMN_WEIGHTS[index]}`);
      positions.set(token, list);
    }
    position += 1;
  }
  return [...positions].map(([token, list]) => `${lexeme(token)}:${list.join(',')}`).join(' ');
}

/** One phrase as a tsquery: its tokens adjacent (`<->`), restricted to its columns' weights. */
export function phraseQuery(phrase: TokenPhrase): string {
  const weights = phrase.columns.map((column) => COLUMN_WEIGHTS[column]).join('');
  const last = phrase.tokens.length - 1;
  return phrase.tokens
    .map((token, index) => `${lexeme(token)}:${index === last && phrase.prefix ? '*' : ''}${weights}`)
    .join(' <-> ');
}

/** Any of the phrases. */
export function anyPhraseQuery(phrases: readonly TokenPhrase[]): string {
  return phrases.map((phrase) => `(${phraseQuery(phrase)})`).join(' | ');
}
