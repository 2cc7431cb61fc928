/**
 * Whether a result's structured part may go out as MCP `structuredContent`. Some clients hand the
 * model only `structuredContent` when it is present, so it must say everything the text says:
 * either the tool declares an `outputSchema` (the structured part is its result, as MCP requires
 * then), or the text is that same JSON value. Anything else (read_file's line counts next to the
 * file's text) stays out. The budget already counted the structured part, so dropping it never
 * lets a result grow past it.
 */
export function isStructuredConsistent(
  structured: unknown,
  text: string,
  options: { declaresOutputSchema?: boolean },
): structured is Record<string, unknown> {
  if (!isPlainObject(structured)) return false;
  if (options.declaresOutputSchema) return true;
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return false;
  try {
    return sameJson(JSON.parse(trimmed), structured);
  } catch {
    return false;
  }
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => sameJson(item, right[index]));
  }
  if (!isPlainObject(left) || !isPlainObject(right)) return false;
  // JSON.parse never yields undefined values; a structured part may hold some, which JSON drops.
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return rightKeys.every((key) => Object.hasOwn(left, key) && sameJson(left[key], right[key]));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
