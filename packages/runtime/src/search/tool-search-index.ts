import { analyzeQuery, analyzeText, contentStems } from '@quiver/text-search';
import type { ToolDefinitionLite } from '@quiver/types';
import { type ToolFields, toolFields } from './tool-fields.js';

/**
 * Field weights and length normalisation (BM25F): a name says what a tool does, a title and the
 * description's first sentence restate it, parameters say what it acts on; the rest of a
 * description is long and says much else.
 */
const FIELDS: readonly { field: keyof ToolFields; weight: number; b: number }[] = [
  { field: 'name', weight: 3, b: 0.3 },
  { field: 'server', weight: 1.5, b: 0.3 },
  { field: 'title', weight: 2, b: 0.5 },
  { field: 'description', weight: 1, b: 0.75 },
  { field: 'summary', weight: 1, b: 0.5 },
  { field: 'parameters', weight: 0.4, b: 0.75 },
];
const K1 = 1.6;
/** A tool whose every name word the query contains ("create pull request") is what was asked for. */
const WHOLE_NAME_BOOST = 1.5;
/** A query word that is only the start of an indexed term ("repo", "kube") scores this fraction. */
const PREFIX_DISCOUNT = 0.5;
const MIN_PREFIX_LENGTH = 3;

export interface ToolSearchIndex {
  readonly tools: readonly ToolDefinitionLite[];
  /** Best `limit` tools for a keyword query, best first. */
  search(query: string, limit: number): ToolDefinitionLite[];
  /** The same ranking as positions in `tools`. */
  rank(query: string, limit: number): number[];
}

interface Postings {
  documents: Int32Array;
  /** BM25F term weight per document, saturated: tf / (K1 + tf) · (K1 + 1). */
  weights: Float32Array;
  idf: number;
}

/**
 * An inverted index over each tool's name, server, title, description and parameters, ranked
 * with BM25F over stems, with WordNet and domain synonyms at query time. Building is linear in
 * the text; a query touches only the postings of its terms, so it stays fast at 10,000 tools.
 */
export function createToolSearchIndex(tools: readonly ToolDefinitionLite[]): ToolSearchIndex {
  const count = tools.length;
  const analyzed = tools.map((tool) => {
    const fields = toolFields(tool);
    return FIELDS.map(({ field }) => analyzeText(fields[field]));
  });
  const nameStems = tools.map((tool) => [...new Set(contentStems(toolFields(tool).name))]);
  const averages = FIELDS.map(
    (_, field) =>
      analyzed.reduce((sum, fields) => sum + (fields[field] as string[]).length, 0) / Math.max(1, count) || 1,
  );
  const termDocuments = new Map<string, number[]>();
  const termWeights = new Map<string, number[]>();
  const nameIndex = new Map<string, number>();
  analyzed.forEach((fields, document) => {
    const lowerName = (tools[document] as ToolDefinitionLite).name.toLowerCase();
    if (!nameIndex.has(lowerName)) nameIndex.set(lowerName, document);
    const frequencies = new Map<string, number>();
    FIELDS.forEach(({ weight, b }, field) => {
      const terms = fields[field] as string[];
      const norm = 1 - b + (b * terms.length) / (averages[field] as number);
      for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + weight / norm);
    });
    for (const [term, frequency] of frequencies) {
      let documents = termDocuments.get(term);
      if (!documents) {
        documents = [];
        termDocuments.set(term, documents);
        termWeights.set(term, []);
      }
      documents.push(document);
      (termWeights.get(term) as number[]).push((frequency * (K1 + 1)) / (frequency + K1));
    }
  });
  const postings = new Map<string, Postings>();
  for (const [term, documents] of termDocuments) {
    postings.set(term, {
      documents: Int32Array.from(documents),
      weights: Float32Array.from(termWeights.get(term) as number[]),
      idf: Math.log(1 + (count - documents.length + 0.5) / (documents.length + 0.5)),
    });
  }
  const vocabulary = [...postings.keys()].sort();
  const scores = new Float64Array(count);
  const best = new Float64Array(count);
  const touched = new Int32Array(count);
  const touchedInGroup = new Int32Array(count);

  function prefixTerms(term: string): string[] {
    if (term.length < MIN_PREFIX_LENGTH) return [];
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((vocabulary[middle] as string) < term) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (
      let index = low;
      index < vocabulary.length && (vocabulary[index] as string).startsWith(term);
      index += 1
    )
      if (vocabulary[index] !== term) found.push(vocabulary[index] as string);
    return found;
  }

  function rank(query: string, limit: number): number[] {
    if (limit <= 0 || count === 0) return [];
    let touchedCount = 0;
    const groups = analyzeQuery(query);
    const queryTerms = new Set<string>();
    for (const group of groups) for (const { term, weight } of group) if (weight === 1) queryTerms.add(term);
    for (const group of groups) {
      // Each group adds its best alternative per document: synonyms never outweigh the word.
      let groupCount = 0;
      const consider = (term: string, weight: number) => {
        const list = postings.get(term);
        if (!list) return;
        const { documents, weights, idf } = list;
        for (let index = 0; index < documents.length; index += 1) {
          const document = documents[index] as number;
          const score = weight * idf * (weights[index] as number);
          if (best[document] === 0) touchedInGroup[groupCount++] = document;
          if (score > (best[document] as number)) best[document] = score;
        }
      };
      for (const { term, weight } of group) {
        consider(term, weight);
        if (weight === 1) for (const longer of prefixTerms(term)) consider(longer, PREFIX_DISCOUNT);
      }
      for (let index = 0; index < groupCount; index += 1) {
        const document = touchedInGroup[index] as number;
        if (scores[document] === 0) touched[touchedCount++] = document;
        scores[document] = (scores[document] as number) + (best[document] as number);
        best[document] = 0;
      }
    }
    for (let index = 0; index < touchedCount; index += 1) {
      const document = touched[index] as number;
      const own = nameStems[document] as string[];
      if (own.length > 0 && own.every((stem) => queryTerms.has(stem)))
        scores[document] = (scores[document] as number) * WHOLE_NAME_BOOST;
    }
    const exact = nameIndex.get(query.trim().toLowerCase());
    if (exact !== undefined) {
      if (scores[exact] === 0) touched[touchedCount++] = exact;
      scores[exact] = (scores[exact] as number) + 1e6;
    }
    const found: number[] = [];
    for (let index = 0; index < touchedCount; index += 1) {
      const document = touched[index] as number;
      const score = scores[document] as number;
      if (found.length === limit && score <= (scores[found[limit - 1] as number] as number)) continue;
      let position = found.length;
      while (position > 0 && isBetter(document, found[position - 1] as number)) position -= 1;
      found.splice(position, 0, document);
      if (found.length > limit) found.pop();
    }
    for (let index = 0; index < touchedCount; index += 1) scores[touched[index] as number] = 0;
    return found;
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
