import type { ToolResult } from '@quiver/types';
import type { HookText } from './hook-runner.js';

export interface Decorations {
  toolName: string;
  suppressedBy: string | undefined;
  /** preToolUse and postToolUse context, in the order the hooks ran. */
  contexts: readonly HookText[];
  /** postToolUseFailure guidance. */
  guidance: readonly HookText[];
}

/**
 * What hooks change about the text a model sees. Structured data is never touched; added text
 * is marked with the hook it came from so the model can tell it from the tool's own output.
 */
export function decorateResult(result: ToolResult, decorations: Decorations): ToolResult {
  if (result.ok) {
    const value =
      decorations.suppressedBy === undefined
        ? result.value
        : `[output of ${decorations.toolName} hidden by hook "${decorations.suppressedBy}"]`;
    return { ...result, value: appendMarked(value, decorations.contexts, 'context') };
  }
  const withContext = appendMarked(result.error, decorations.contexts, 'context');
  return { ...result, error: appendMarked(withContext, decorations.guidance, 'guidance') };
}

function appendMarked(text: string, additions: readonly HookText[], kind: 'context' | 'guidance'): string {
  if (additions.length === 0) return text;
  const blocks = additions.map((addition) => `[${kind} from hook "${addition.hook}"]\n${addition.text}`);
  return [text, ...blocks].join('\n\n');
}
