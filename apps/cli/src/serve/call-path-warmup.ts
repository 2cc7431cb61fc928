import { serializeMessage } from '@modelcontextprotocol/server';
import type { Session } from '@quiver/runtime';
import { toCallToolResult } from './content.js';
import { isPlainToolsCall, plainCallToolResult } from './lean-call.js';

let warmed = false;

/** What serve's own call path does around the session, each run on nothing (see warmCallPath). */
export interface CallPathSteps {
  /** Resolves a tool's name and arguments as a call does (a lookup in the listing and pool). */
  target(name: string): void;
  /** Dispatches a call whose `execute` runs nothing and encodes its answer as a call's result. */
  dispatch(): Promise<unknown>;
}

/**
 * Runs once per process, one step per event-loop turn after `initialize`, what a first
 * `tools/call` would otherwise compile on its way: the lean path's request check and result
 * encoding, the call's target lookup and its dispatch with a stand-in for the session's run (no
 * tool runs, no event is published or logged), the argument schemas of the session's tools
 * (`session.warmCalls`, which ran the pipeline on its unseen stand-in tool while serve waited for
 * its bridged servers), and a permission check of one of the session's tools (`session.check`,
 * which asks and runs nothing and writes no event). A request that
 * arrives meanwhile waits for one step at most.
 */
export function warmCallPath(session: Session, calls?: CallPathSteps): void {
  if (warmed) return;
  warmed = true;
  const firstTool = () => session.pool().executables.keys().next().value as string | undefined;
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
      const name = firstTool();
      if (name !== undefined) calls?.target(name);
    },
    () => void calls?.dispatch().catch(() => undefined),
    () => void session.warmCalls(),
    () => {
      const name = firstTool();
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
