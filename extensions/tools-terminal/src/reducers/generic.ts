import type { Recognizer, RecognizerInput } from './reducer-input.js';

export const GENERIC_THRESHOLD_BYTES = 8 * 1024;
const HEAD_LINES = 60;
const TAIL_LINES = 60;
const MAX_LINE_CHARS = 500;

function clipLine(line: string): string {
  return line.length <= MAX_LINE_CHARS
    ? line
    : `${line.slice(0, MAX_LINE_CHARS)}… [${line.length - MAX_LINE_CHARS} more chars]`;
}

/** Anything over 8 KB: the first and last lines, very long lines clipped, a marker saying what was cut. */
export const reduceGenericOutput: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= GENERIC_THRESHOLD_BYTES) return undefined;
  const lines = input.lines;
  if (lines.length <= HEAD_LINES + TAIL_LINES) {
    const clipped = lines.map(clipLine).join('\n');
    return clipped.length < input.output.length ? clipped : undefined;
  }
  const cut = lines.length - HEAD_LINES - TAIL_LINES;
  return [
    ...lines.slice(0, HEAD_LINES).map(clipLine),
    `[… ${cut.toLocaleString('en-US')} lines cut from the middle …]`,
    ...lines.slice(lines.length - TAIL_LINES).map(clipLine),
  ].join('\n');
};
