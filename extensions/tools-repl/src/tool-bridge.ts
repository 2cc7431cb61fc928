import type { ToolsHandle } from '@quiver/types';
import type { SandboxHost } from './sandbox.js';

/**
 * The sandbox's side of the tools capability. Only strings cross: arguments arrive as JSON
 * text written inside the sandbox, results leave as JSON text, so no host object is ever
 * reachable from a script.
 */
export function bridgeTo(tools: ToolsHandle, signal: AbortSignal): SandboxHost {
  return {
    async call(name, argsJson) {
      let args: unknown;
      try {
        args = JSON.parse(argsJson);
      } catch {
        return JSON.stringify({
          ok: false,
          code: 'input_invalid',
          error: `Arguments of ${name} are not JSON.`,
        });
      }
      const result = await tools.call(name, args, { signal });
      return JSON.stringify(
        result.ok
          ? { ok: true, value: result.value }
          : { ok: false, code: result.code, error: `[${result.code}] ${result.error}` },
      );
    },
    async search(query, limit) {
      return JSON.stringify(await tools.search(query, Math.min(Math.max(Math.trunc(limit), 1), 50)));
    },
    list() {
      return JSON.stringify(tools.listed);
    },
  };
}
