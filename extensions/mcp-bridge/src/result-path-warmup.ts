import type { CallToolResult } from '@modelcontextprotocol/client';
import { toToolResult } from './call-result.js';
import { callToolResultSchema } from './send-tool-call.js';

let warmed = false;

/**
 * Once per process, after the first server connected: what the first call's answer passes
 * through (the result check, the text's cleaning and the conversion to a Quiver result) runs
 * twice on a stand-in text result, so that V8 has compiled it before a call waits on it. Nothing
 * is sent, published or recorded; the results are dropped.
 */
export function warmResultPath(): void {
  if (warmed) return;
  warmed = true;
  try {
    for (let round = 0; round < 2; round++) {
      const result: CallToolResult = { content: [{ type: 'text', text: 'warm-up' }] };
      void callToolResultSchema()['~standard'].validate(result);
      toToolResult(result);
    }
  } catch {
    // Only a warm-up: the first call runs the same and reports its own errors.
  }
}
