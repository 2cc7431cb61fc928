/**
 * How deeply a JSON-RPC message read by Quiver may nest arrays and objects. Real messages nest a
 * few dozen levels; the validators and serializers behind the transports recurse, so a message
 * nested thousands of levels deep would overflow their stack (a 500, a lost log record) instead
 * of being refused as bad input.
 */
export const MAX_JSON_DEPTH = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** Whether the JSON text nests arrays and objects deeper than `maxDepth` (brackets inside strings do not count). */
export function jsonNestsDeeperThan(text: Buffer | string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  // Deeper than `maxDepth` takes more than `maxDepth` brackets, each one byte (one UTF-16 unit):
  // most messages are shorter than that, and are not read byte by byte.
  if (text.length <= maxDepth) return false;
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth -= 1;
  }
  return false;
}

/** What a message nested too deeply is answered with (-32600). */
export function tooDeepMessage(what: string): string {
  return `Invalid Request: ${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no Quiver message needs that many.`;
}
