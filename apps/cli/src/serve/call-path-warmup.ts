import { serializeMessage } from '@modelcontextprotocol/server';
import type { Session } from '@quiver/runtime';
import { toCallToolResult } from './content.js';
import { isPlainToolsCall, plainCallToolResult } from './lean-call.js';

let warmed = false;

/**
 * Runs once per process, one step per event-loop turn after `initialize`, what a first
 * `tools/call` would otherwise compile on its way: the lean path's request check and result
 * encoding, and a permission check of one of the session's tools (`session.check`, which asks and
 * runs nothing and writes no event). A request that arrives meanwhile waits for one step at most.
 */
export function warmCallPath(session: Session): void {
  if (warmed) return;
  warmed = true;
  const steps = [
    () => {
      const request = {
        jsonrpc: '2.0',
        id: 0,
        method: 'tools/call',
        params: { name: 'warm', arguments: {} },
      };
      if (!isPlainToolsCall(JSON.parse(JSON.stringify(request)))) return;
      const result = plainCallToolResult(toCallToolResult({ ok: true, value: '' }));
      if (result) serializeMessage({ result, jsonrpc: '2.0', id: 0 });
    },
    () => {
      const name = session.pool().executables.keys().next().value;
      if (name !== undefined) void session.check([{ id: 'warm-up', name, args: {} }]).catch(() => undefined);
    },
  ];
  const next = () => {
    const step = steps.shift();
    if (step === undefined) return;
    try {
      step();
    } catch {
      // Only a warm-up: the first call does the same work and reports its own errors.
    }
    setImmediate(next);
  };
  setImmediate(next);
}
