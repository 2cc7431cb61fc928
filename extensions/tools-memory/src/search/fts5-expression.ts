import type { SearchPhrase } from './search-phrase.js';

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The FTS5 MATCH expression for phrases ORed together: consecutive phrases over the same
 * columns share one column filter, `{search_terms search_tags} : ("deploy"* OR "friday")`.
 */
export function fts5Expression(phrases: readonly SearchPhrase[]): string {
  const groups: { columns: string; phrases: string[] }[] = [];
  for (const phrase of phrases) {
    const columns = phrase.columns.join(' ');
    const text = `${quote(phrase.text)}${phrase.prefix ? '*' : ''}`;
    const last = groups.at(-1);
    if (last && last.columns === columns) last.phrases.push(text);
    else groups.push({ columns, phrases: [text] });
  }
  return groups.map((group) => `{${group.columns}} : (${group.phrases.join(' OR ')})`).join(' OR ');
}
