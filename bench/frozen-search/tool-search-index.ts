import type { ToolDefinitionLite } from '@quiver/types';
import { tokenize } from './tokenize.js';

/** A name word counts this many times a description word: names say what a tool is. */
const NAME_WEIGHT = 3;
const K1 = 1.2;
const B = 0.75;
/** A query word that is only the start of an indexed word scores this fraction. */
const PREFIX_DISCOUNT = 0.5;
const MIN_PREFIX_LENGTH = 3;

export interface ToolSearchIndex {
  readonly tools: readonly ToolDefinitionLite[];
  /** Best `limit` tools for a keyword query (BM25), best first. */
  search(query: string, limit: number): ToolDefinitionLite[];
  /** The same ranking as positions in `tools`. */
  rank(query: string, limit: number): number[];
}

interface Postings {
  documents: Int32Array;
  frequencies: Float32Array;
  idf: number;
}

/**
 * An inverted index over tool names and descriptions, ranked with BM25. Building is linear in
 * the text; a query touches only the postings of its words, so it stays fast at 10,000 tools.
 */
export function createToolSearchIndex(tools: readonly ToolDefinitionLite[]): ToolSearchIndex {
  // Words become ids once; per-document counts live in a scratch array indexed by id.
  const termIds = new Map<string, number>();
  const termDocuments: number[][] = [];
  const termFrequencies: number[][] = [];
  let scratch = new Float64Array(1024);
  const seenInDocument: number[] = [];
  const lengths = new Float64Array(tools.length);
  const nameIndex = new Map<string, number>();
  const countWords = (words: readonly string[], weight: number) => {
    for (const word of words) {
      let id = termIds.get(word);
      if (id === undefined) {
        id = termDocuments.length;
        termIds.set(word, id);
        termDocuments.push([]);
        termFrequencies.push([]);
        if (id >= scratch.length) {
          const grown = new Float64Array(scratch.length * 2);
          grown.set(scratch);
          scratch = grown;
        }
      }
      if (scratch[id] === 0) seenInDocument.push(id);
      scratch[id] = (scratch[id] as number) + weight;
    }
  };
  tools.forEach((tool, document) => {
    const lowerName = tool.name.toLowerCase();
    if (!nameIndex.has(lowerName)) nameIndex.set(lowerName, document);
    const nameWords = tokenize(tool.name);
    const descriptionWords = tokenize(tool.title ? `${tool.title} ${tool.description}` : tool.description);
    countWords(nameWords, NAME_WEIGHT);
    countWords(descriptionWords, 1);
    lengths[document] = nameWords.length * NAME_WEIGHT + descriptionWords.length;
    for (const id of seenInDocument) {
      (termDocuments[id] as number[]).push(document);
      (termFrequencies[id] as number[]).push(scratch[id] as number);
      scratch[id] = 0;
    }
    seenInDocument.length = 0;
  });
  const count = tools.length;
  const averageLength = count === 0 ? 1 : lengths.reduce((sum, length) => sum + length, 0) / count || 1;
  const norms = new Float64Array(count);
  for (let document = 0; document < count; document += 1)
    norms[document] = K1 * (1 - B + (B * (lengths[document] ?? 0)) / averageLength);
  const postings = new Map<string, Postings>();
  for (const [word, id] of termIds) {
    const documents = termDocuments[id] as number[];
    const frequency = documents.length;
    postings.set(word, {
      documents: Int32Array.from(documents),
      frequencies: Float32Array.from(termFrequencies[id] as number[]),
      idf: Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5)),
    });
  }
  const vocabulary = [...postings.keys()].sort();
  const scores = new Float64Array(count);
  const touched = new Int32Array(count);

  function prefixWords(word: string): string[] {
    if (word.length < MIN_PREFIX_LENGTH) return [];
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((vocabulary[middle] as string) < word) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (
      let index = low;
      index < vocabulary.length && (vocabulary[index] as string).startsWith(word);
      index += 1
    ) {
      if (vocabulary[index] !== word) found.push(vocabulary[index] as string);
    }
    return found;
  }

  function rank(query: string, limit: number): number[] {
    if (limit <= 0 || count === 0) return [];
    let touchedCount = 0;
    const add = (word: string, weight: number) => {
      const list = postings.get(word);
      if (!list) return;
      const { documents, frequencies, idf } = list;
      for (let index = 0; index < documents.length; index += 1) {
        const document = documents[index] as number;
        const frequency = frequencies[index] as number;
        if (scores[document] === 0) touched[touchedCount++] = document;
        scores[document] =
          (scores[document] as number) +
          (weight * idf * frequency * (K1 + 1)) / (frequency + (norms[document] as number));
      }
    };
    for (const word of new Set(tokenize(query))) {
      if (postings.has(word)) add(word, 1);
      for (const longer of prefixWords(word)) add(longer, PREFIX_DISCOUNT);
    }
    const exact = nameIndex.get(query.trim().toLowerCase());
    if (exact !== undefined) {
      if (scores[exact] === 0) touched[touchedCount++] = exact;
      scores[exact] = (scores[exact] as number) + 1e6;
    }
    const best: number[] = [];
    for (let index = 0; index < touchedCount; index += 1) {
      const document = touched[index] as number;
      const score = scores[document] as number;
      if (best.length === limit && score <= (scores[best[limit - 1] as number] as number)) continue;
      let position = best.length;
      while (position > 0 && isBetter(document, best[position - 1] as number)) position -= 1;
      best.splice(position, 0, document);
      if (best.length > limit) best.pop();
    }
    for (let index = 0; index < touchedCount; index += 1) scores[touched[index] as number] = 0;
    return best;
  }

  function isBetter(document: number, other: number): boolean {
    const difference = (scores[document] as number) - (scores[other] as number);
    return difference > 0 || (difference === 0 && document < other);
  }

  return {
    tools,
    rank,
    search: (query, limit) => rank(query, limit).map((document) => tools[document] as ToolDefinitionLite),
  };
}

const cache = new WeakMap<readonly ToolDefinitionLite[], ToolSearchIndex>();
let lastBuilt: ToolSearchIndex | undefined;

/**
 * The index for this list, built once and reused while the list lives. A new list with the same
 * names, titles and descriptions (a reassembled pool where only deferred flags changed) reuses
 * the last index, with results taken from the new list.
 */
export function toolSearchIndexFor(tools: readonly ToolDefinitionLite[]): ToolSearchIndex {
  let index = cache.get(tools);
  if (index) return index;
  const previous = lastBuilt;
  if (previous && sameSearchableText(previous.tools, tools)) {
    index = {
      tools,
      rank: previous.rank,
      search: (query, limit) =>
        previous.rank(query, limit).map((document) => tools[document] as ToolDefinitionLite),
    };
  } else {
    index = createToolSearchIndex(tools);
    lastBuilt = index;
  }
  cache.set(tools, index);
  return index;
}

function sameSearchableText(
  left: readonly ToolDefinitionLite[],
  right: readonly ToolDefinitionLite[],
): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) {
    const a = left[index] as ToolDefinitionLite;
    const b = right[index] as ToolDefinitionLite;
    if (a.name !== b.name || a.description !== b.description || a.title !== b.title) return false;
  }
  return true;
}
