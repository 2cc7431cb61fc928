export type LineEnding = '\n' | '\r\n' | '\r' | '';

/**
 * A text as lines plus the ending each line had. The last entry is the text after the final
 * line break (`''` when the text ends with one), and its ending is always `''`.
 */
export interface SplitText {
  lines: string[];
  endings: LineEnding[];
}

export function splitLines(text: string): SplitText {
  if (!text.includes('\r')) {
    const lines = text.split('\n');
    const endings: LineEnding[] = new Array(lines.length).fill('\n');
    endings[lines.length - 1] = '';
    return { lines, endings };
  }
  const lines: string[] = [];
  const endings: LineEnding[] = [];
  const pattern = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    lines.push(text.slice(start, match.index));
    endings.push(match[0] as LineEnding);
    start = match.index + match[0].length;
  }
  lines.push(text.slice(start));
  endings.push('');
  return { lines, endings };
}

export function joinLines(split: SplitText): string {
  let out = '';
  for (let index = 0; index < split.lines.length; index += 1)
    out += (split.lines[index] ?? '') + (split.endings[index] ?? '');
  return out;
}

/** The most frequent line break; LF for texts without one, and on ties in this order. */
export function dominantLineEnding(endings: readonly LineEnding[]): Exclude<LineEnding, ''> {
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  for (const ending of endings) {
    if (ending === '\n') lf += 1;
    else if (ending === '\r\n') crlf += 1;
    else if (ending === '\r') cr += 1;
  }
  if (crlf > lf && crlf >= cr) return '\r\n';
  if (cr > lf && cr > crlf) return '\r';
  return '\n';
}

/** Number of lines a text has, as an editor shows it (a final line break adds none). */
export function countLines(text: string): number {
  if (text === '') return 0;
  const split = splitLines(text);
  return split.lines[split.lines.length - 1] === '' ? split.lines.length - 1 : split.lines.length;
}
