import { expandAbbreviations } from './abbreviations.js';
import { EVERYDAY_PHRASINGS } from './everyday-phrasings.js';
import { everydayPhrasingsIn } from './everyday-phrasings-index.js';
import { splitRequestWords } from './glued-words.js';
import { compoundWords, splitWords } from './split-words.js';
import { stemWord } from './stem.js';
import { isRequestFiller, isStopWord } from './stop-words.js';
import { conceptPhrases, wordnetSynonyms } from './synonyms.js';

/** Bump when the analysis changes, so stored indexes built with an older one are rebuilt. */
export const TEXT_ANALYZER_VERSION = 2;

/** The stems of a text's meaningful words, in order, without compounds or concept tokens. */
export function contentStems(text: string): string[] {
  const stems: string[] = [];
  for (const word of expandAbbreviations(splitWords(text))) if (isContent(word)) stems.push(stemWord(word));
  return stems;
}

/**
 * The terms a text is indexed under: the stems of its meaningful words, then one concept token
 * for each domain phrase it contains (`pull requests` and `PR` both add `xpullrequest`).
 */
export function analyzeText(text: string): string[] {
  const words = expandAbbreviations(splitWords(text));
  const stems = new Array<string>(words.length);
  const terms: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] as string;
    const stem = stemWord(word);
    stems[index] = stem;
    if (isContent(word)) terms.push(stem);
  }
  for (const compound of compoundWords(text)) terms.push(stemWord(compound));
  terms.push(...conceptsIn(stems));
  return terms;
}

/** One weighted alternative of a query term. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface QueryAnalysisOptions {
  /** Weight of a WordNet synonym relative to the word itself (default 0.3; 0 turns them off). */
  synonymWeight?: number;
  /** WordNet synonyms per word, the closest first (default 4). */
  maxSynonyms?: number;
  /**
   * Put the concept term of a one-word phrase ("make" → the create concept) in that word's group,
   * as another alternative of the word, instead of a group of its own that adds to the word's
   * match (default false; phrases of several words always get a group of their own).
   */
  conceptsInWordGroup?: boolean;
  /**
   * Weight of the tool-side words of an everyday phrasing the query says ("slow" → performance,
   * trace, outliers; "go back" → rollback, undo), relative to the query's own words: each word a
   * group of its own, so a tool with more of them ranks higher (default 0: not expanded).
   */
  phrasingWeight?: number;
  /**
   * Weight of a phrasing's tool-side word when it is a single word ("to a JSON file" → export,
   * "play back" → replay): the phrase names that one capability outright, so it may count for more
   * than a word of a list (default: 1.5 × phrasingWeight).
   */
  oneWordPhrasingWeight?: number;
  /**
   * Stems of the searched texts' vocabulary: a glued technical word is taken off a request word
   * ("nodejs" → node, js) when the rest is one of these (or a word WordNet or the concept groups know).
   */
  knownStem?: (stem: string) => boolean;
}

/**
 * A query as groups of alternatives: each meaningful word with weight 1 and its WordNet synonyms
 * with a lower weight, and each concept token the query's phrases add. A document scores the
 * best alternative of each group, so a word's synonyms never add up to more than the word.
 */
export function analyzeQuery(query: string, options: QueryAnalysisOptions = {}): WeightedTerm[][] {
  const synonymWeight = options.synonymWeight ?? 0.3;
  const maxSynonyms = options.maxSynonyms ?? 4;
  const words = expandAbbreviations(splitRequestWords(query, options.knownStem));
  const stems = words.map(stemWord);
  const groups: WeightedTerm[][] = [];
  const groupOfStem = new Map<string, WeightedTerm[]>();
  const seen = new Set<string>();
  for (const [index, stem] of stems.entries()) {
    const word = words[index] as string;
    if (!isContent(word) || isRequestFiller(word) || seen.has(stem)) continue;
    seen.add(stem);
    const group = [{ term: stem, weight: 1 }];
    groupOfStem.set(stem, group);
    if (synonymWeight > 0)
      for (const synonym of wordnetSynonyms(stem).slice(0, maxSynonyms))
        group.push({ term: synonym, weight: synonymWeight });
    groups.push(group);
  }
  for (const compound of compoundWords(query).map(stemWord)) {
    if (seen.has(compound)) continue;
    seen.add(compound);
    groups.push([{ term: compound, weight: 1 }]);
  }
  if (options.conceptsInWordGroup) {
    for (const { concept, stems: phrase, start } of conceptSpans(stems)) {
      const own = phrase.length === 1 ? groupOfStem.get(stems[start] as string) : undefined;
      if (seen.has(concept)) continue;
      if (own) {
        seen.add(concept);
        own.push({ term: concept, weight: 1 });
        continue;
      }
      seen.add(concept);
      groups.push([{ term: concept, weight: 1 }]);
    }
  } else
    for (const concept of conceptsIn(stems)) {
      if (seen.has(concept)) continue;
      seen.add(concept);
      groups.push([{ term: concept, weight: 1 }]);
    }
  const phrasingWeight = options.phrasingWeight ?? 0;
  const oneWordPhrasingWeight = options.oneWordPhrasingWeight ?? ONE_WORD_PHRASING_FACTOR * phrasingWeight;
  if (phrasingWeight > 0)
    for (const entry of everydayPhrasingsIn(stems)) {
      const weight = isOneWordMeaning(entry) ? oneWordPhrasingWeight : phrasingWeight;
      for (const term of meansTerms(entry))
        if (!seen.has(term)) {
          seen.add(term);
          groups.push([{ term, weight }]);
        }
    }
  // A query of stop words only ("show me all") still searches for its words.
  if (groups.length === 0) for (const stem of new Set(stems)) groups.push([{ term: stem, weight: 1 }]);
  return groups;
}

/** A phrasing that means one word names one capability: its word counts 1.5 times a list's. */
const ONE_WORD_PHRASING_FACTOR = 1.5;

const meansOfEntry = new Map<number, readonly string[]>();

/** The terms a phrasing's tool-side words are indexed under (stems and concept tokens), once each. */
function meansTerms(entry: number): readonly string[] {
  let terms = meansOfEntry.get(entry);
  if (terms === undefined) {
    terms = [...new Set(analyzeText((EVERYDAY_PHRASINGS[entry] as { means: string }).means))];
    meansOfEntry.set(entry, terms);
  }
  return terms;
}

function isOneWordMeaning(entry: number): boolean {
  return !(EVERYDAY_PHRASINGS[entry] as { means: string }).means.includes(' ');
}

/** Stop words are checked before stemming, which turns some into other words ("does" → "doe"). */
function isContent(word: string): boolean {
  if (word.length === 1) {
    const code = word.charCodeAt(0);
    return code >= 48 && code <= 57;
  }
  return !isStopWord(word);
}

function conceptSpans(
  stems: readonly string[],
): { concept: string; stems: readonly string[]; start: number }[] {
  const phrases = conceptPhrases();
  const found: { concept: string; stems: readonly string[]; start: number }[] = [];
  for (let index = 0; index < stems.length; index += 1) {
    for (const phrase of phrases.get(stems[index] as string) ?? []) {
      if (phrase.stems.every((stem, offset) => stems[index + offset] === stem))
        found.push({ concept: phrase.concept, stems: phrase.stems, start: index });
    }
  }
  return found;
}

function conceptsIn(stems: readonly string[]): string[] {
  const phrases = conceptPhrases();
  const found = new Set<string>();
  for (let index = 0; index < stems.length; index += 1) {
    for (const phrase of phrases.get(stems[index] as string) ?? []) {
      if (phrase.stems.every((stem, offset) => stems[index + offset] === stem)) found.add(phrase.concept);
    }
  }
  return [...found];
}
