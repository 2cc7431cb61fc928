/**
 * Every code point a person would not see as itself: C0/C1 controls (escape sequences begin with
 * one), format characters (bidi embeddings, overrides and isolates, U+200E/F, U+061C, zero-width
 * characters, tags), default-ignorable code points (Hangul fillers, variation selectors), line and
 * paragraph separators, spaces other than U+0020, private-use, unassigned and lone surrogate code
 * units.
 */
const NOT_SHOWN_AS_ITSELF =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}]/gu;

/** `\uXXXX` per UTF-16 unit: visible on a terminal and in a form, and still valid inside JSON strings. */
export function escapeCodePoint(character: string): string {
  let out = '';
  for (let index = 0; index < character.length; index++)
    out += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return out;
}

export interface VisibleTextOptions {
  /** Keep newline and tab as they are (multi-line output on a terminal); default: escape them too. */
  keepLineBreaks?: boolean;
}

/**
 * Text from outside (a model's arguments, a server's question, command output) as a person is
 * shown it: every code point that would not show as itself — controls, escape sequences, bidi
 * controls, zero-width and other invisible characters, unusual spaces, newlines — becomes a
 * visible `\uXXXX`, so what a person reads is every character there is, in order. Quiver's own
 * text around it (labels, line breaks) is added by the caller after escaping.
 */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  return text.replace(NOT_SHOWN_AS_ITSELF, (character) => {
    if (character === ' ') return character;
    if (options.keepLineBreaks === true && (character === '\n' || character === '\t')) return character;
    return escapeCodePoint(character);
  });
}

/** Text cut at `maxChars` (after escaping) with a marker saying how much was left out. */
export function boundedVisibleText(text: string, maxChars: number): string {
  const shown = visibleText(text);
  if (shown.length <= maxChars) return shown;
  // Never cut inside an escape: a half escape would read as other characters.
  let end = maxChars;
  const lastEscape = shown.lastIndexOf('\\u', end);
  if (lastEscape !== -1 && lastEscape + 6 > end) end = lastEscape;
  return `${shown.slice(0, end)}… (${shown.length - end} more characters not shown)`;
}
