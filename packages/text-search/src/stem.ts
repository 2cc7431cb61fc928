import { stemmer } from 'stemmer';

const MAX_CACHED = 50_000;

// Words Porter merges with unrelated ones that tool texts use in both senses (`terminal` and
// `terminate`, `general` and `generate`, `news` and `new`).
const KEPT_WHOLE = new Set([
  'terminal',
  'terminals',
  'general',
  'generic',
  'news',
  'university',
  'experiment',
  'community',
  'executive',
]);
const EXCEPTIONS = new Map([
  ['organization', 'organiz'],
  ['organizations', 'organiz'],
  ['organisation', 'organiz'],
  ['organisations', 'organiz'],
  ['terminals', 'terminal'],
]);
const cache = new Map<string, string>();

/**
 * The Porter stem of a lowercased word (`repositories` → `repositori`, `listing` → `list`).
 * Cached: the words of tool descriptions repeat, and stemming is most of indexing.
 */
export function stemWord(word: string): string {
  let stem = cache.get(word);
  if (stem === undefined) {
    stem =
      EXCEPTIONS.get(word) ??
      (word.length <= 2 || KEPT_WHOLE.has(word) || !/^[a-z]+$/.test(word) ? word : stemmer(word));
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}
