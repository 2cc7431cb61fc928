const SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Co}]+/u;
const COMBINING_DIACRITICS = /[\u0300-\u036f]/g;

/**
 * The tokens FTS5's `unicode61 remove_diacritics 2` tokenizer makes of a search column:
 * lowercased, Latin diacritics removed, split on spaces and punctuation. The PostgreSQL backend
 * indexes and matches these, so both backends see the same tokens in the analysed columns.
 */
export function searchTokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(COMBINING_DIACRITICS, '')
    .normalize('NFC')
    .toLowerCase()
    .split(SEPARATORS)
    .filter((token) => token.length > 0);
}
