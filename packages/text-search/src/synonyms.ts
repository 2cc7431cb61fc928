import { DOMAIN_SYNONYM_GROUPS } from './domain-synonyms.js';
import { WORDNET_HYPERNYMS } from './generated/wordnet-hypernyms.js';
import { WORDNET_SYNONYMS } from './generated/wordnet-synonyms.js';
import { stemWord } from './stem.js';

let wordnet: Map<string, readonly string[]> | undefined;

/**
 * Stems WordNet gives as synonyms of a stem (same sense, or a broader or narrower word), the
 * closest first; empty when it knows none. The table is parsed on first use.
 */
export function wordnetSynonyms(stem: string): readonly string[] {
  if (!wordnet) {
    wordnet = new Map();
    for (const entry of WORDNET_SYNONYMS.split(';')) {
      const colon = entry.indexOf(':');
      wordnet.set(entry.slice(0, colon), entry.slice(colon + 1).split(','));
    }
  }
  return wordnet.get(stem) ?? [];
}

const hypernymTable = `;${WORDNET_HYPERNYMS};`;
const hypernymsFound = new Map<string, readonly string[]>();

/**
 * Stems of the broader words WordNet gives for a common noun's first senses (`cafe` → restaurant,
 * eating house, place; `ticket` → label), in WordNet's order; empty when it knows none. For a
 * request word no text of the collection uses, these are the next best words to look for. Only
 * the entries asked for are read from the table (it is looked up for a few unknown words at most).
 */
export function wordnetHypernyms(stem: string): readonly string[] {
  let found = hypernymsFound.get(stem);
  if (found === undefined) {
    const start = /^[a-z]+$/.test(stem) ? hypernymTable.indexOf(`;${stem}:`) : -1;
    found =
      start < 0
        ? []
        : hypernymTable.slice(start + stem.length + 2, hypernymTable.indexOf(';', start + 1)).split(',');
    if (hypernymsFound.size >= 10_000) hypernymsFound.clear();
    hypernymsFound.set(stem, found);
  }
  return found;
}

/** A phrase of a domain group, as stems, and the concept token it stands for. */
export interface ConceptPhrase {
  stems: readonly string[];
  concept: string;
}

let phrasesByFirstStem: Map<string, ConceptPhrase[]> | undefined;
const concepts = new Set<string>();

/** True for the concept tokens analyzeText adds (`xpullrequest`), false for words of a text. */
export function isConceptTerm(term: string): boolean {
  conceptPhrases();
  return concepts.has(term);
}

/**
 * Phrases of the domain groups keyed by their first stem, longest first. A group's concept token
 * is `x` and the letters of its first phrase (`xpullrequest`): a word no text contains, made of
 * letters so every tokenizer keeps it whole.
 */
export function conceptPhrases(): Map<string, ConceptPhrase[]> {
  if (!phrasesByFirstStem) {
    phrasesByFirstStem = new Map();
    for (const group of DOMAIN_SYNONYM_GROUPS) {
      const concept = `x${(group[0] as string).replace(/[^a-z]/g, '')}`;
      concepts.add(concept);
      for (const phrase of group) {
        const stems = phrase.split(' ').map(stemWord);
        const first = stems[0] as string;
        const list = phrasesByFirstStem.get(first) ?? [];
        list.push({ stems, concept });
        list.sort((a, b) => b.stems.length - a.stems.length);
        phrasesByFirstStem.set(first, list);
      }
    }
  }
  return phrasesByFirstStem;
}
