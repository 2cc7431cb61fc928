import type { Alternative } from './tool-search-query.js';

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

  constructor(count: number) {
    this.scores = new Float64Array(count);
    this.nameHits = new Uint8Array(count);
    this.touched = new Int32Array(count);
    this.best = new Float64Array(count);
    this.touchedInGroup = new Int32Array(count);
  }

  /** Adds a group: each tool its postings list gains its best alternative there. */
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
    const best = this.best;
    const touchedInGroup = this.touchedInGroup;
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
