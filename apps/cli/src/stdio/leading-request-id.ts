/** How much of a message too large to read is kept to find its id. */
export const ID_PREFIX_BYTES = 4096;

/**
 * The top-level `"id"` of a JSON-RPC request from the first bytes of its text, so that a message
 * too large to read can still be answered to the request that waits for it. Null when the id is
 * not among those bytes (or the text is not an object); strings and nested values are skipped as
 * JSON has them, so an `"id"` inside `params` is never taken for the request's.
 */
export function leadingRequestId(prefix: Buffer): string | number | null {
  const text = prefix.toString('utf8');
  let depth = 0;
  let index = 0;
  let expectKey = false;
  let key: string | undefined;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') {
      const end = stringEnd(text, index);
      if (end < 0) return null;
      const value = text.slice(index, end + 1);
      index = end + 1;
      if (depth === 1 && expectKey) {
        key = parseString(value);
        expectKey = false;
        continue;
      }
      if (depth === 1 && key === 'id') return parseString(value) ?? null;
      continue;
    }
    if (char === '{' || char === '[') {
      if (depth === 0 && char === '[') return null;
      depth += 1;
      if (depth === 1) expectKey = true;
    } else if (char === '}' || char === ']') depth -= 1;
    else if (char === ',' && depth === 1) {
      expectKey = true;
      key = undefined;
    } else if (depth === 1 && key === 'id' && /[-0-9]/.test(char)) {
      const number = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(text.slice(index));
      // A number cut off by the end of the prefix is not the id.
      if (!number || index + number[0].length >= text.length) return null;
      return Number(number[0]);
    } else if (depth === 1 && key === 'id' && /[nft]/.test(char)) return null;
    index += 1;
  }
  return null;
}

function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '"') return index;
  }
  return -1;
}

function parseString(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}
