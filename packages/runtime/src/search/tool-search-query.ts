import { analyzeQuery } from '@quiver/text-search';

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
}

/** A query word that is only the start of an indexed term ("repo", "kube") scores this fraction. */
const PREFIX_DISCOUNT = 0.5;
const MIN_PREFIX_LENGTH = 3;
/** A longer word in more tools than this share says little and costs the most to score. */
const MAX_PREFIX_SHARE = 0.05;
/** A query word this long or longer names a server it begins ("mongo" → mongodb). */
const MIN_SERVER_PREFIX_LENGTH = 4;
/** Agents repeat queries; a plan is reused until this many others were made. */
const MAX_CACHED_PLANS = 256;

/**
 * Turns queries into plans against one index: the words, their synonyms and the indexed words
 * they begin, each with its postings and idf looked up once, cached per query text.
 */
export class QueryPlanner {
  private readonly vocabulary: string[];
  private readonly plans = new Map<string, QueryPlan>();

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
    const { postings, count, nameIndex } = this.index;
    const words: string[] = [];
    const groups: Alternative[][] = [];
    for (const group of analyzeQuery(query)) {
      const alternatives: Alternative[] = [];
      const add = (term: string, weight: number, namesWord: boolean) => {
        const list = postings.get(term);
        if (list) alternatives.push({ postings: list, factor: weight * list.idf, namesWord });
      };
      for (const { term, weight } of group) {
        if (weight !== 1) {
          add(term, weight, false);
          continue;
        }
        words.push(term);
        add(term, 1, true);
        for (const longer of this.prefixTerms(term))
          if ((postings.get(longer) as Postings).documents.length <= count * MAX_PREFIX_SHARE)
            add(longer, PREFIX_DISCOUNT, false);
      }
      if (alternatives.length > 0) groups.push(alternatives);
    }
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
