/** What shortening a value cut, to say so next to it. */
export interface ShrinkReport {
  items: number;
  characters: number;
}

export interface Shrunk {
  text: string;
  /** Absent when the value fit whole. */
  cut?: ShrinkReport;
}

const MARK = '…';

/**
 * Prints a script's result within `maxChars`, keeping its structure: long arrays keep their first
 * and last items around a marker saying how many were cut, long strings their head and tail, and
 * every object keeps its keys. The bounds halve until the printed value fits.
 */
export function shrinkValue(value: unknown, maxChars: number): Shrunk {
  const whole = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  if (whole.length <= maxChars) return { text: whole };
  let items = 50;
  let chars = Math.max(Math.floor(maxChars / 4), 200);
  for (;;) {
    const cut: ShrinkReport = { items: 0, characters: 0 };
    const shrunk = shrinkNode(value, items, chars, cut);
    const text = typeof shrunk === 'string' ? shrunk : JSON.stringify(shrunk, null, 2);
    if (text.length <= maxChars || (items <= 1 && chars <= 40)) {
      return { text: text.length <= maxChars ? text : headAndTail(text, maxChars, cut), cut };
    }
    items = Math.max(Math.floor(items / 2), 1);
    chars = Math.max(Math.floor(chars / 2), 40);
  }
}

function shrinkNode(value: unknown, items: number, chars: number, cut: ShrinkReport): unknown {
  if (typeof value === 'string') return value.length > chars ? headAndTail(value, chars, cut) : value;
  if (Array.isArray(value)) {
    if (value.length <= items * 2) return value.map((item) => shrinkNode(item, items, chars, cut));
    const dropped = value.length - items * 2;
    cut.items += dropped;
    return [
      ...value.slice(0, items).map((item) => shrinkNode(item, items, chars, cut)),
      `${MARK} ${dropped.toLocaleString('en-US')} items cut ${MARK}`,
      ...value.slice(-items).map((item) => shrinkNode(item, items, chars, cut)),
    ];
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) out[key] = shrinkNode(entry, items, chars, cut);
    return out;
  }
  return value;
}

function headAndTail(text: string, room: number, cut: ShrinkReport): string {
  const half = Math.max(Math.floor((room - 40) / 2), 0);
  const dropped = text.length - half * 2;
  cut.characters += dropped;
  return `${text.slice(0, half)} ${MARK} ${dropped.toLocaleString('en-US')} characters cut ${MARK} ${text.slice(text.length - half)}`;
}

export function describeCut(cut: ShrinkReport, maxChars: number): string {
  const parts = [
    cut.items > 0 ? `${cut.items.toLocaleString('en-US')} array items` : '',
    cut.characters > 0 ? `${cut.characters.toLocaleString('en-US')} characters of long strings` : '',
  ].filter((part) => part.length > 0);
  return `[The result was shortened to fit ${maxChars.toLocaleString('en-US')} characters: ${parts.join(' and ')} cut where marked ${MARK}; keys and order are kept. Return a slice or a summary to see the rest.]`;
}
