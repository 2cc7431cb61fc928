/**
 * Text a server sends is data for the model, never formatting or hidden instructions. These
 * functions take out what a person reviewing the same text would not see.
 */

/** Escape sequences (CSI, OSC up to BEL or ST, single-character escapes) and C0/C1 controls. */
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** In results a carriage return stays: it is part of CRLF text, and terminals escape it anyway. */
const RESULT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Unicode tag characters: invisible, yet read by models as ASCII. */
const TAG = /[\u{e0000}-\u{e007f}]/gu;
/** Zero-width characters and bidi controls: invisible in a review, present for the model. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Quiver's own terminal result header, which a server's result must not pass for. */
const QUIVER_HEADER = /^\[(?:exit code |timed out after |aborted; |killed by )/;
/** The header on any line of a text. */
const QUIVER_HEADER_LINE = /(?:^|\n)\[(?:exit code |timed out after |aborted; |killed by )/;
/** Anything `cleanResultText` would change: every escape begins with a control, tags are one surrogate range. */
const RESULT_SUSPECT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\udb40[\udc00-\udc7f]/;

export const MAX_DESCRIPTION_CHARS = 4_000;
export const MAX_TITLE_CHARS = 200;
export const MAX_SCHEMA_TEXT_CHARS = 1_000;

export interface CleanedText {
  text: string;
  /** True when escapes, controls or invisible characters were taken out. */
  cleaned: boolean;
  /** Characters cut to respect the cap. */
  cut: number;
}

/** A definition text (description, title, schema text) as the model may see it. */
export function cleanDefinitionText(text: string, maxChars: number): CleanedText {
  const stripped = text.replace(ANSI, '').replace(CONTROL, '').replace(TAG, '').replace(INVISIBLE, '');
  const cut = Math.max(0, stripped.length - maxChars);
  return {
    text: cut > 0 ? `${stripped.slice(0, maxChars)}… [${cut} more characters cut by Quiver]` : stripped,
    cleaned: stripped.length !== text.length,
    cut,
  };
}

/**
 * A result text as the model and the person see it: no escapes, controls or tag characters;
 * zero-width characters stay (scripts and data need them); a line that looks like Quiver's
 * terminal header is marked as the server's.
 */
export function cleanResultText(text: string): string {
  // Most results have nothing to take out: one scan instead of three replacements and a split.
  if (!RESULT_SUSPECT.test(text) && !QUIVER_HEADER_LINE.test(text)) return text;
  return text
    .replace(ANSI, '')
    .replace(RESULT_CONTROL, '')
    .replace(TAG, '')
    .split('\n')
    .map((line) => (QUIVER_HEADER.test(line) ? `server: ${line}` : line))
    .join('\n');
}
