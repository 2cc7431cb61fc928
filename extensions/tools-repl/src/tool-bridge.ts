import type { InnerToolInfo, ToolsHandle } from '@quiver/types';
import type { SandboxHost } from './sandbox.js';
import { scriptIdentifier } from './tool-names.js';

/**
 * The sandbox's side of the tools capability. Only strings cross: arguments arrive as JSON
 * text written inside the sandbox, results leave as JSON text (and the tool's own text after it),
 * so no host object is ever reachable from a script. A call resolves to the tool's structured value when it has one
 * (its text otherwise); the text always travels along for `{ text: true }`.
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
      const target = aliased(tools, name);
      let result = await tools.call(target, args, { signal });
      // A camel-cased name of a tool whose server connected during this call.
      if (!result.ok && result.code === 'not_available' && aliased(tools, name) !== target)
        result = await tools.call(aliased(tools, name), args, { signal });
      // The tool's text follows the JSON on its own, never inside it: it is often most of the
      // answer (a file's lines), and JSON-encoding it twice and parsing it in the sandbox cost more
      // than the rest of the inner call.
      if (result.ok) return `${JSON.stringify(okMeta(result.structured))}\n${result.value}`;
      return JSON.stringify({
        ok: false,
        code: result.code,
        error: `[${result.code}] ${result.error}`,
        ...(result.structured === undefined ? {} : { structured: result.structured }),
      });
    },
    async search(query, limit) {
      const found = await tools.search(query, Math.min(Math.max(Math.trunc(limit), 1), 50));
      return JSON.stringify(found.map(withAlias));
    },
    list() {
      return JSON.stringify(tools.listed.map(withAlias));
    },
  };
}

/** The tool a script's name stands for: its own name, or the camel-cased alias of a listed tool. */
function aliased(tools: ToolsHandle, name: string): string {
  if (tools.listed.some((tool) => tool.name === name)) return name;
  return tools.listed.find((tool) => scriptIdentifier(tool.name) === name)?.name ?? name;
}

function withAlias(tool: InnerToolInfo): InnerToolInfo & { alias: string } {
  return { ...tool, alias: scriptIdentifier(tool.name) };
}

/**
 * What a script gets from a successful call: the structured value, with the display text as
 * `text` when the value is an object without one (many tools keep the content itself, a file's
 * lines or a command's output, in the text and only facts about it in the structured part); the
 * text itself when there is no structured value. `textAt` says where the sandbox puts the text.
 */
function okMeta(structured: unknown): { ok: true; value?: unknown; textAt?: 'value' | 'field' } {
  if (structured === undefined || structured === null) return { ok: true, textAt: 'value' };
  if (typeof structured === 'object' && !Array.isArray(structured) && !Object.hasOwn(structured, 'text'))
    return { ok: true, value: structured, textAt: 'field' };
  return { ok: true, value: structured };
}
