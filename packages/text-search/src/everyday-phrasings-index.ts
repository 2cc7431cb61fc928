import { expandAbbreviations } from './abbreviations.js';
import { EVERYDAY_PHRASINGS } from './everyday-phrasings.js';
import { splitWords } from './split-words.js';
import { stemWord } from './stem.js';

interface IndexedPhrasing {
  stems: readonly string[];
  /** Which phrasing entry the phrase belongs to. */
  entry: number;
}

let byFirstStem: Map<string, IndexedPhrasing[]> | undefined;

function build(): Map<string, IndexedPhrasing[]> {
  if (byFirstStem) return byFirstStem;
  byFirstStem = new Map();
  for (const [entry, { says }] of EVERYDAY_PHRASINGS.entries()) {
    for (const phrase of says) {
      const stems = expandAbbreviations(splitWords(phrase)).map(stemWord);
      const first = stems[0];
      if (first === undefined) continue;
      const list = byFirstStem.get(first) ?? [];
      list.push({ stems, entry });
      byFirstStem.set(first, list);
    }
  }
  return byFirstStem;
}

/**
 * The entries of EVERYDAY_PHRASINGS whose phrases a query's stems contain, each once, in the
 * order they are first said.
 */
export function everydayPhrasingsIn(stems: readonly string[]): number[] {
  const phrases = build();
  const found: number[] = [];
  for (let index = 0; index < stems.length; index += 1) {
    for (const { stems: phrase, entry } of phrases.get(stems[index] as string) ?? []) {
      if (found.includes(entry)) continue;
      if (phrase.every((stem, offset) => stems[index + offset] === stem)) found.push(entry);
    }
  }
  return found;
}
