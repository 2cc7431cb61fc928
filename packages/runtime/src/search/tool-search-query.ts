import { textSearch } from './text-search.js';

/** The tools an indexed term occurs in, with its BM25F weight in each. */
export interface Postings {
  documents: Int32Array;
  /** BM25F term weight per document, saturated: tf / (K1 + tf) · (K1 + 1). */
  weights: Float32Array;
  /** 1 where the term is a word of the tool's own name. */
  inName: Uint8Array;
  idf: number;
}

/** One way a query word can match: an indexed term and what a match is worth. */
export interface Alternative {
  postings: Postings;
  /** weight of the alternative × idf of the term. */
  factor: number;
  /** The query's own word (not a synonym or a longer word): counts toward a whole-name match. */
  namesWord: boolean;
}

/** A query made ready to score: what each of its words may match, and what it names. */
export interface QueryPlan {
  /** One group of alternatives per query word or concept. */
  groups: Alternative[][];
  /** Servers the query names, by the number the index gives them. */
  namedServers: ReadonlySet<number> | undefined;
  /** The tool whose full name the query is. */
  exactName: number | undefined;
}

export interface QueryPlannerIndex {
  postings: ReadonlyMap<string, Postings>;
  count: number;
  nameIndex: ReadonlyMap<string, number>;
  /** Terms of each server's name, by server number. */
  serverTerms: readonly (readonly string[])[];
  /** Each tool's name words, by tool. */
  nameTerms: readonly (readonly string[])[];
}

/** A query word that is only the start of an indexed term ("repo", "kube") scores this fraction. */
const PREFIX_DISCOUNT = 0.5;
const MIN_PREFIX_LENGTH = 3;
/** A longer word in more tools than this share says little and costs the most to score. */
const MAX_PREFIX_SHARE = 0.05;
/** A query word this long or longer names a server it begins ("mongo" → mongodb). */
const MIN_SERVER_PREFIX_LENGTH = 4;
/**
 * A name word the catalog's tools share when their text has a query word scores this fraction of
 * its share: at least MIN_RELATED_SHARE of at least MIN_RELATED_TOOLS tools, the MAX_RELATED best.
 */
const RELATED_WEIGHT = 0.5;
const MIN_RELATED_TOOLS = 2;
const MIN_RELATED_SHARE = 0.3;
const MAX_RELATED = 3;
/**
 * A request word no tool's text uses ("cafes") is looked for through the broader words WordNet
 * gives for it ("restaurant", "place"), at the weight of a synonym.
 */
const HYPERNYM_WEIGHT = 0.3;
/**
 * A request asked as a question about which things there are ("which slack channels are there",
 * "what programs are running") asks for a list: it also matches the list concept, as a word would.
 */
const ASKS_WHICH = /^\s*(which|what)\b/i;
let listConcept: string | null | undefined;
/** The list concept's token, found on the first query (not when the module loads: a `quiver call` never searches). */
function listConceptTerm(): string | undefined {
  if (listConcept === undefined) {
    const { analyzeText, isConceptTerm } = textSearch();
    listConcept = analyzeText('list').find((term) => isConceptTerm(term)) ?? null;
  }
  return listConcept ?? undefined;
}
/**
 * A term's weight is its idf flattened by this power: a word found in one or two tools (often by
 * chance: a product name, a word of an example) outweighs the request's common words less, so a
 * tool matching several of them is not outranked by one that shares a single rare word.
 */
const IDF_EXPONENT = 0.94;
/**
 * The tool-side words of an everyday phrasing a request says ("slow" → performance, trace,
 * outliers; "go back" → rollback, undo) score this fraction of a word of the request's own.
 */
const PHRASING_WEIGHT = 0.6;
/** Agents repeat queries; a plan is reused until this many others were made. */
const MAX_CACHED_PLANS = 256;

/**
 * Turns queries into plans against one index: the words, their synonyms and the indexed words
 * they begin, each with its postings and idf looked up once, cached per query text.
 */
export class QueryPlanner {
  private readonly vocabulary: string[];
  private readonly plans = new Map<string, QueryPlan>();
  /** Related name words per query word, kept for the index's life (bounded by its vocabulary). */
  private readonly related = new Map<string, { term: string; share: number }[]>();

  constructor(private readonly index: QueryPlannerIndex) {
    this.vocabulary = [...index.postings.keys()].sort();
  }

  plan(query: string): QueryPlan {
    let plan = this.plans.get(query);
    if (plan === undefined) {
      plan = this.build(query);
      if (this.plans.size >= MAX_CACHED_PLANS) this.plans.clear();
      this.plans.set(query, plan);
    }
    return plan;
  }

  private build(query: string): QueryPlan {
    const { analyzeQuery, wordnetHypernyms } = textSearch();
    const { postings, count, nameIndex } = this.index;
    const words: string[] = [];
    const groups: Alternative[][] = [];
    // A one-word concept ("make" → create, "folder" → directory) is another way to match that
    // word, not a second match: it joins the word's group, so a tool matching both the word and
    // its concept does not outscore one that has the request's own words.
    for (const group of analyzeQuery(query, {
      conceptsInWordGroup: true,
      phrasingWeight: PHRASING_WEIGHT,
      knownStem: (stem) => postings.has(stem),
    })) {
      const alternatives: Alternative[] = [];
      const add = (term: string, weight: number, namesWord: boolean) => {
        const list = postings.get(term);
        if (list) alternatives.push({ postings: list, factor: weight * termWeight(list), namesWord });
      };
      const own = group[0];
      if (own !== undefined && own.weight === 1 && !postings.has(own.term))
        for (const broader of wordnetHypernyms(own.term)) add(broader, HYPERNYM_WEIGHT, false);
      for (const { term, weight } of group) {
        if (weight !== 1) {
          add(term, weight, false);
          continue;
        }
        words.push(term);
        add(term, 1, true);
        for (const { term: related, share } of this.relatedNameTerms(term))
          add(related, RELATED_WEIGHT * share, false);
        for (const longer of this.prefixTerms(term))
          if ((postings.get(longer) as Postings).documents.length <= count * MAX_PREFIX_SHARE)
            add(longer, PREFIX_DISCOUNT, false);
      }
      if (alternatives.length > 0) groups.push(alternatives);
    }
    const listTerm = listConceptTerm();
    const list = listTerm === undefined ? undefined : postings.get(listTerm);
    if (
      list &&
      ASKS_WHICH.test(query) &&
      !groups.some((group) => group.some((alternative) => alternative.postings === list))
    )
      groups.push([{ postings: list, factor: termWeight(list), namesWord: false }]);
    return {
      groups,
      namedServers: this.namedServers(words),
      exactName: nameIndex.get(query.trim().toLowerCase()),
    };
  }

  private namedServers(words: readonly string[]): Set<number> | undefined {
    let named: Set<number> | undefined;
    this.index.serverTerms.forEach((terms, server) => {
      const names = terms.some((term) =>
        words.some(
          (word) => term === word || (word.length >= MIN_SERVER_PREFIX_LENGTH && term.startsWith(word)),
        ),
      );
      if (names) (named ??= new Set()).add(server);
    });
    return named;
  }

  /**
   * Name words of the tools whose text has `term`: the words the catalogs' own tools are named
   * with when their text uses this one ("pod" → kubectl, "bug" → issue). Share = of the tools with the
   * term, how many have the name word; only name words most of them share count.
   */
  private relatedNameTerms(term: string): { term: string; share: number }[] {
    let related = this.related.get(term);
    if (related === undefined) {
      if (!this.index.postings.has(term)) return [];
      related = this.findRelatedNameTerms(term);
      this.related.set(term, related);
    }
    return related;
  }

  private findRelatedNameTerms(term: string): { term: string; share: number }[] {
    const { postings, nameTerms } = this.index;
    const list = postings.get(term);
    if (list === undefined || list.documents.length < MIN_RELATED_TOOLS) return [];
    const counts = new Map<string, number>();
    for (const document of list.documents)
      for (const name of nameTerms[document] as readonly string[])
        if (name !== term) counts.set(name, (counts.get(name) ?? 0) + 1);
    const related: { term: string; share: number }[] = [];
    for (const [name, found] of counts) {
      const share = found / list.documents.length;
      if (found >= MIN_RELATED_TOOLS && share >= MIN_RELATED_SHARE) related.push({ term: name, share });
    }
    return related.sort((a, b) => b.share - a.share).slice(0, MAX_RELATED);
  }

  /** Indexed terms that start with `term` and are longer. */
  private prefixTerms(term: string): string[] {
    if (term.length < MIN_PREFIX_LENGTH) return [];
    const vocabulary = this.vocabulary;
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
}

/** What a match on this term is worth before its weight in the tool: its idf, flattened. */
function termWeight(postings: Postings): number {
  return postings.idf ** IDF_EXPONENT;
}
