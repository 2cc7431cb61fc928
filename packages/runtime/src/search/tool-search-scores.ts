import type { Alternative, Postings } from './tool-search-query.js';

/**
 * Per-query scores over one index's tools, in arrays allocated once per index. A group of
 * alternatives adds, per tool, the best alternative it matches; `nameHits` counts the query's
 * own words found in each tool's name.
 */
export class ToolSearchScores {
  readonly scores: Float64Array;
  readonly nameHits: Uint8Array;
  readonly touched: Int32Array;
  touchedCount = 0;
  private readonly best: Float64Array;
  private readonly touchedInGroup: Int32Array;
  private readonly top: Float64Array;

  constructor(private readonly count: number) {
    this.scores = new Float64Array(count);
    this.nameHits = new Uint8Array(count);
    this.touched = new Int32Array(count);
    this.best = new Float64Array(count);
    this.touchedInGroup = new Int32Array(count);
    this.top = new Float64Array(count);
  }

  /** Adds a group over every tool its postings list. */
  addGroup(group: readonly Alternative[]): void {
    const { scores, nameHits, touched } = this;
    if (group.length === 1) {
      const { postings, factor, namesWord } = group[0] as Alternative;
      const { documents, weights, inName } = postings;
      let touchedCount = this.touchedCount;
      for (let index = 0; index < documents.length; index += 1) {
        const document = documents[index] as number;
        if (scores[document] === 0) touched[touchedCount++] = document;
        scores[document] = (scores[document] as number) + factor * (weights[index] as number);
        if (namesWord) nameHits[document] = (nameHits[document] as number) + (inName[index] as number);
      }
      this.touchedCount = touchedCount;
      return;
    }
    const { best, touchedInGroup } = this;
    let groupCount = 0;
    for (const { postings, factor, namesWord } of group) {
      const { documents, weights, inName } = postings;
      for (let index = 0; index < documents.length; index += 1) {
        const document = documents[index] as number;
        const score = factor * (weights[index] as number);
        if (best[document] === 0) touchedInGroup[groupCount++] = document;
        if (score > (best[document] as number)) best[document] = score;
        if (namesWord) nameHits[document] = (nameHits[document] as number) + (inName[index] as number);
      }
    }
    let touchedCount = this.touchedCount;
    for (let index = 0; index < groupCount; index += 1) {
      const document = touchedInGroup[index] as number;
      if (scores[document] === 0) touched[touchedCount++] = document;
      scores[document] = (scores[document] as number) + (best[document] as number);
      best[document] = 0;
    }
    this.touchedCount = touchedCount;
  }

  /**
   * Adds a group to the tools already scored only, looking each one up: the cheaper way when
   * the group's postings are long and no other tool can reach the top any more.
   */
  addGroupToTouched(group: readonly Alternative[]): void {
    const { scores, nameHits, touched, touchedCount } = this;
    const lookups = group.map(({ postings }) => denseWeights(postings, this.count));
    for (let index = 0; index < touchedCount; index += 1) {
      const document = touched[index] as number;
      let best = 0;
      for (let alternative = 0; alternative < group.length; alternative += 1) {
        const { factor, namesWord } = group[alternative] as Alternative;
        const { weights, inName } = lookups[alternative] as DenseWeights;
        const score = factor * (weights[document] as number);
        if (score > best) best = score;
        if (namesWord) nameHits[document] = (nameHits[document] as number) + (inName[document] as number);
      }
      scores[document] = (scores[document] as number) + best;
    }
  }

  /** The `rank`-th highest score so far (1 = the highest), 0 when fewer tools have one. */
  scoreAtRank(rank: number): number {
    if (this.touchedCount < rank) return 0;
    const top = this.top;
    let filled = 0;
    for (let index = 0; index < this.touchedCount; index += 1) {
      const score = this.scores[this.touched[index] as number] as number;
      if (filled === rank && score <= (top[rank - 1] as number)) continue;
      let position = filled < rank ? filled++ : rank - 1;
      while (position > 0 && (top[position - 1] as number) < score) {
        top[position] = top[position - 1] as number;
        position -= 1;
      }
      top[position] = score;
    }
    return top[rank - 1] as number;
  }

  /** Clears what this query wrote, for the next one. */
  reset(): void {
    for (let index = 0; index < this.touchedCount; index += 1) {
      const document = this.touched[index] as number;
      this.scores[document] = 0;
      this.nameHits[document] = 0;
    }
    this.touchedCount = 0;
  }
}

interface DenseWeights {
  weights: Float32Array;
  inName: Uint8Array;
}

const dense = new WeakMap<Postings, DenseWeights>();

/** A term's weight and name flag for every tool (0 where absent), made on first need. */
function denseWeights(postings: Postings, count: number): DenseWeights {
  let found = dense.get(postings);
  if (found === undefined) {
    found = { weights: new Float32Array(count), inName: new Uint8Array(count) };
    const { documents, weights, inName } = postings;
    for (let index = 0; index < documents.length; index += 1) {
      found.weights[documents[index] as number] = weights[index] as number;
      found.inName[documents[index] as number] = inName[index] as number;
    }
    dense.set(postings, found);
  }
  return found;
}
