import type { ToolDefinitionLite } from '@quiver/types';
import { textSearch } from './text-search.js';
import { type ToolFields, toolFields } from './tool-fields.js';
import { buildPostings, type FieldWeight } from './tool-postings.js';
import { type QueryPlan, QueryPlanner } from './tool-search-query.js';
import { ToolSearchScores } from './tool-search-scores.js';

/**
 * Field weights and length normalisation (BM25F): a name says what a tool does, a title and the
 * description's first sentence restate it, parameters say what it acts on; the rest of a
 * description is long and says much else. The whole description weighs 0.6 (the first sentence,
 * also its own field, 1.6): a tool whose usage notes repeat a request's words ("collection",
 * "database") no longer outranks the one whose name and first sentence say what was asked
 * (swept 0.2–1.3 on the tuning halves: recall@5 is 343 of 357 from 0.5 to 0.7, 340 at 1).
 */
const FIELDS: readonly (FieldWeight & { field: keyof ToolFields })[] = [
  { field: 'name', weight: 3, b: 0.3 },
  { field: 'server', weight: 1.5, b: 0.3 },
  { field: 'title', weight: 2, b: 0.5 },
  { field: 'description', weight: 0.6, b: 0.75 },
  { field: 'summary', weight: 1, b: 0.5 },
  { field: 'parameters', weight: 0.4, b: 0.75 },
];
/**
 * Saturation of a term's weighted count: a tool whose name, first sentence and description all
 * say a request word ("commit" in `list_commits`) keeps more of its lead over one that says it
 * once (swept 1.2–2.2 on the tuning halves, with and without the everyday phrasings: 1.8–1.9 best
 * in both; was 1.6).
 */
const K1 = 1.85;
/** A tool whose every name word the query contains ("create pull request") is what was asked for. */
const WHOLE_NAME_BOOST = 1.5;
/** A query that names a tool's server ("… on heroku", "in mongo") asks for that product's tools. */
const NAMED_SERVER_BOOST = 1.5;

export interface ToolSearchIndex {
  readonly tools: readonly ToolDefinitionLite[];
  /** Best `limit` tools for a keyword query, best first. */
  search(query: string, limit: number): ToolDefinitionLite[];
  /** The same ranking as positions in `tools`. */
  rank(query: string, limit: number): number[];
}

/**
 * An inverted index over each tool's name, server, title, description and parameters, ranked
 * with BM25F over stems, with WordNet and domain synonyms at query time. Building is linear in
 * the text; a query touches only the postings of its terms, so it stays fast at 10,000 tools.
 */
export function createToolSearchIndex(tools: readonly ToolDefinitionLite[]): ToolSearchIndex {
  const { analyzeText, contentStems } = textSearch();
  const count = tools.length;
  const fieldsOf = tools.map(toolFields);
  const analyzed = fieldsOf.map((fields) => FIELDS.map(({ field }) => analyzeText(fields[field])));
  const nameStems = fieldsOf.map((fields) => new Set(contentStems(fields.name)));
  const nameStemCounts = Uint8Array.from(nameStems, (stems) => Math.min(255, stems.size));
  const { serverOf, serverTerms } = indexServers(fieldsOf);
  const nameIndex = new Map<string, number>();
  tools.forEach(({ name }, document) => {
    const lowerName = name.toLowerCase();
    if (!nameIndex.has(lowerName)) nameIndex.set(lowerName, document);
  });
  const postings = buildPostings(analyzed, nameStems, FIELDS, K1);
  const nameTerms = nameStems.map((stems) => [...stems]);
  const planner = new QueryPlanner({ postings, count, nameIndex, serverTerms, nameTerms });
  const state = new ToolSearchScores(count);
  const { scores, nameHits, touched } = state;

  function rank(query: string, limit: number): number[] {
    if (limit <= 0 || count === 0) return [];
    const plan: QueryPlan = planner.plan(query);
    // Each group adds its best alternative per tool: synonyms never outweigh the word.
    for (const group of plan.groups) state.addGroup(group);
    let touchedCount = state.touchedCount;
    const namedServers = plan.namedServers;
    for (let index = 0; index < touchedCount; index += 1) {
      const document = touched[index] as number;
      const own = nameStemCounts[document] as number;
      if (own > 0 && nameHits[document] === own)
        scores[document] = (scores[document] as number) * WHOLE_NAME_BOOST;
      if (namedServers?.has(serverOf[document] as number))
        scores[document] = (scores[document] as number) * NAMED_SERVER_BOOST;
    }
    if (plan.exactName !== undefined) {
      const exact = plan.exactName;
      if (scores[exact] === 0) touched[touchedCount++] = exact;
      scores[exact] = (scores[exact] as number) + 1e6;
    }
    state.touchedCount = touchedCount;
    const found = topDocuments(scores, touched, touchedCount, limit);
    state.reset();
    return found;
  }

  return {
    tools,
    rank,
    search: (query, limit) => rank(query, limit).map((document) => tools[document] as ToolDefinitionLite),
  };
}

/** The `limit` best-scoring touched documents, best first; ties go to the earlier tool. */
function topDocuments(
  scores: Float64Array,
  touched: Int32Array,
  touchedCount: number,
  limit: number,
): number[] {
  const found: number[] = [];
  const isBetter = (document: number, other: number) => {
    const difference = (scores[document] as number) - (scores[other] as number);
    return difference > 0 || (difference === 0 && document < other);
  };
  for (let index = 0; index < touchedCount; index += 1) {
    const document = touched[index] as number;
    if (found.length === limit && !isBetter(document, found[limit - 1] as number)) continue;
    let position = found.length;
    while (position > 0 && isBetter(document, found[position - 1] as number)) position -= 1;
    found.splice(position, 0, document);
    if (found.length > limit) found.pop();
  }
  return found;
}

// Words every MCP server name has ("mcp-server-…", "…-mcp"): they name no product.
const SERVER_BOILERPLATE = new Set(['mcp', 'server']);

/** Each tool's server as a number, and the words (stems and concept terms) each server's name has. */
function indexServers(fieldsOf: readonly ToolFields[]): { serverOf: Int32Array; serverTerms: string[][] } {
  const { contentStems } = textSearch();
  const ids = new Map<string, number>();
  const serverTerms: string[][] = [];
  const serverOf = Int32Array.from(fieldsOf, ({ server }) => {
    if (server === '') return -1;
    let id = ids.get(server);
    if (id === undefined) {
      id = serverTerms.length;
      ids.set(server, id);
      serverTerms.push([...new Set(contentStems(server))].filter((term) => !SERVER_BOILERPLATE.has(term)));
    }
    return id;
  });
  return { serverOf, serverTerms };
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
