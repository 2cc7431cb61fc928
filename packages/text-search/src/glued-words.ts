import { abbreviationTable } from './abbreviations.js';
import { DOMAIN_SYNONYM_GROUPS } from './domain-synonyms.js';
import { splitWords } from './split-words.js';
import { stemWord } from './stem.js';
import { wordnetSynonyms } from './synonyms.js';

/**
 * Short technical words people glue to another word when they type fast: "JSconsole",
 * "GitHubPR", "nodejs", "postgresdb", "userid". Only these, and only when the rest of the word
 * is itself a known word, so "drama" never loses its "ma" and "cards" never becomes "car" + "ds".
 */
const GLUED_PARTS = [
  'js',
  'ts',
  'ui',
  'db',
  'api',
  'sql',
  'css',
  'html',
  'url',
  'pr',
  'prs',
  'id',
  'ids',
  'k8s',
  'ci',
  'cli',
  'sdk',
  'json',
  'yaml',
  'mcp',
];

/** Longest first, so "prs" is tried before "pr". */
const PARTS_LONGEST_FIRST = [...GLUED_PARTS].sort((a, b) => b.length - a.length);

let domainWords: Set<string> | undefined;

/**
 * A word WordNet knows, a word of the software concept groups and abbreviations ("github",
 * "postgres"), or one whose stem the caller's vocabulary has (the words of the indexed tools).
 */
function isKnownWord(word: string, knownStem?: (stem: string) => boolean): boolean {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return false;
  if (!domainWords) {
    domainWords = new Set();
    for (const group of DOMAIN_SYNONYM_GROUPS)
      for (const phrase of group) for (const part of phrase.split(' ')) domainWords.add(part);
    for (const [short, long] of abbreviationTable())
      for (const word of [short, ...long]) domainWords.add(word);
  }
  if (domainWords.has(word)) return true;
  const stem = stemWord(word);
  return wordnetSynonyms(stem).length > 0 || knownStem?.(stem) === true;
}

/** The word split into a glued part and a known word, or undefined when it is no such pair. */
function gluedPair(word: string, knownStem?: (stem: string) => boolean): [string, string] | undefined {
  if (word.length < 5 || isKnownWord(word, knownStem)) return undefined;
  for (const part of PARTS_LONGEST_FIRST) {
    if (word.length - part.length < 3) continue;
    if (word.startsWith(part) && isKnownWord(word.slice(part.length), knownStem))
      return [part, word.slice(part.length)];
    if (word.endsWith(part) && isKnownWord(word.slice(0, -part.length), knownStem))
      return [word.slice(0, -part.length), part];
  }
  return undefined;
}

/**
 * splitWords for a request, with glued technical parts taken off: "JSconsole" → js, console
 * (splitWords alone reads its case change as "j", "sconsole"), "GitHubPR" → github, pr.
 */
export function splitRequestWords(text: string, knownStem?: (stem: string) => boolean): string[] {
  const words = splitWords(text);
  if (!/[a-z]{5}|[A-Z][a-z]/.test(text)) return words;
  const out: string[] = [];
  for (const token of text.split(/[^\p{L}\p{N}]+/u)) {
    if (token === '') continue;
    const pair = /^[A-Za-z]+$/.test(token) ? gluedPair(token.toLowerCase(), knownStem) : undefined;
    if (pair) {
      out.push(...pair);
      continue;
    }
    const parts = splitWords(token);
    // An acronym run before a word: "JSconsole" → "j", "sconsole"; "GitHubPR" → "git", "hub", "pr".
    for (const part of parts) {
      const inner = part.length >= 5 ? gluedPair(part, knownStem) : undefined;
      if (inner) out.push(...inner);
      else out.push(part);
    }
  }
  return out;
}
