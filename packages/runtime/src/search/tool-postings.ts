import type { Postings } from './tool-search-query.js';

/** A field's weight and length normalisation (BM25F). */
export interface FieldWeight {
  weight: number;
  b: number;
}

/**
 * Postings for every term of the analysed tools: per tool, the term's BM25F weight (its count in
 * each field, weighted and normalised by the field's length, then saturated with k1) and whether
 * it is a word of the tool's name. Terms are numbered as they come, so a tool's counts add up in
 * a typed array rather than a map per tool.
 */
export function buildPostings(
  analyzed: readonly (readonly (readonly string[])[])[],
  nameStems: readonly ReadonlySet<string>[],
  fields: readonly FieldWeight[],
  k1: number,
): Map<string, Postings> {
  const count = analyzed.length;
  const averages = fields.map(
    (_, field) =>
      analyzed.reduce((sum, terms) => sum + (terms[field] as readonly string[]).length, 0) /
        Math.max(1, count) || 1,
  );
  const ids = new Map<string, number>();
  const documents: number[][] = [];
  const weights: number[][] = [];
  const inName: number[][] = [];
  let frequency = new Float64Array(1024);
  let named = new Uint8Array(1024);
  const seen: number[] = [];
  const idOf = (term: string): number => {
    let id = ids.get(term);
    if (id === undefined) {
      id = documents.length;
      ids.set(term, id);
      documents.push([]);
      weights.push([]);
      inName.push([]);
      if (id >= frequency.length) {
        const grownFrequency = new Float64Array(frequency.length * 2);
        grownFrequency.set(frequency);
        frequency = grownFrequency;
        const grownNamed = new Uint8Array(named.length * 2);
        grownNamed.set(named);
        named = grownNamed;
      }
    }
    return id;
  };
  analyzed.forEach((terms, document) => {
    fields.forEach(({ weight, b }, field) => {
      const fieldTerms = terms[field] as readonly string[];
      const add = weight / (1 - b + (b * fieldTerms.length) / (averages[field] as number));
      for (const term of fieldTerms) {
        const id = idOf(term);
        if (frequency[id] === 0) seen.push(id);
        frequency[id] = (frequency[id] as number) + add;
      }
    });
    for (const stem of nameStems[document] as ReadonlySet<string>) {
      const id = ids.get(stem);
      if (id !== undefined) named[id] = 1;
    }
    for (const id of seen) {
      const tf = frequency[id] as number;
      (documents[id] as number[]).push(document);
      (weights[id] as number[]).push((tf * (k1 + 1)) / (tf + k1));
      (inName[id] as number[]).push(named[id] as number);
      frequency[id] = 0;
    }
    for (const stem of nameStems[document] as ReadonlySet<string>) {
      const id = ids.get(stem);
      if (id !== undefined) named[id] = 0;
    }
    seen.length = 0;
  });
  const postings = new Map<string, Postings>();
  for (const [term, id] of ids) {
    const list = documents[id] as number[];
    postings.set(term, {
      documents: Int32Array.from(list),
      weights: Float32Array.from(weights[id] as number[]),
      inName: Uint8Array.from(inName[id] as number[]),
      idf: Math.log(1 + (count - list.length + 0.5) / (list.length + 0.5)),
    });
  }
  return postings;
}
