import { isToolResult, resultText, type ToolResult, type ToolResultReducer } from '@quiver/types';

/**
 * Applies the tool's reducer. The reduced result is discarded when the reducer throws, returns
 * something that is not a result, or grows the text; `structured`, `attachments` and `annotations`
 * it dropped are put back.
 */
export function reduceResult(
  result: ToolResult,
  reducer: ToolResultReducer | undefined,
  toolName: string,
  args: unknown,
): ToolResult {
  if (reducer === undefined) return result;
  let reduced: unknown;
  try {
    reduced = reducer.reduce(result, { toolName, args });
  } catch {
    return result;
  }
  if (!isToolResult(reduced) || resultText(reduced).length > resultText(result).length) return result;
  if (reduced === result) return result;
  const restored: ToolResult = { ...reduced };
  if (result.structured !== undefined && restored.structured === undefined)
    restored.structured = result.structured;
  if (result.ok && result.attachments !== undefined && restored.ok && restored.attachments === undefined) {
    restored.attachments = result.attachments;
  }
  if (result.ok && result.annotations !== undefined && restored.ok && restored.annotations === undefined) {
    restored.annotations = result.annotations;
  }
  return restored;
}
