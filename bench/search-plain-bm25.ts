import type { ToolDefinitionLite } from '@quiver/types';

const K1 = 1.2;
const B = 0.75;

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/**
 * The baseline the issue sets: Okapi BM25 over one field (name, title and description as one
 * text), lowercased words of letters and digits, no stemming, no stop words, no synonyms.
 */
export function createPlainBm25(tools: readonly ToolDefinitionLite[]) {
  const postings = new Map<string, { document: number; frequency: number }[]>();
  const lengths = tools.map((tool, document) => {
    const tokens = words(`${tool.name} ${tool.title ?? ''} ${tool.description}`);
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [token, frequency] of counts) {
      let list = postings.get(token);
      if (!list) postings.set(token, (list = []));
      list.push({ document, frequency });
    }
    return tokens.length;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, tools.length);
  return (query: string, limit: number): ToolDefinitionLite[] => {
    const scores = new Map<number, number>();
    for (const token of new Set(words(query))) {
      const list = postings.get(token);
      if (!list) continue;
      const idf = Math.log(1 + (tools.length - list.length + 0.5) / (list.length + 0.5));
      for (const { document, frequency } of list) {
        const norm = K1 * (1 - B + (B * (lengths[document] as number)) / averageLength);
        scores.set(document, (scores.get(document) ?? 0) + (idf * frequency * (K1 + 1)) / (frequency + norm));
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([document]) => tools[document] as ToolDefinitionLite);
  };
}
