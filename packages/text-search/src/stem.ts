import { stemmer } from 'stemmer';

const MAX_CACHED = 50_000;
const cache = new Map<string, string>();

/**
 * The Porter stem of a lowercased word (`repositories` → `repositori`, `listing` → `list`).
 * Cached: the words of tool descriptions repeat, and stemming is most of indexing.
 */
export function stemWord(word: string): string {
  let stem = cache.get(word);
  if (stem === undefined) {
    stem = word.length <= 2 || !/^[a-z]+$/.test(word) ? word : stemmer(word);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}
