import { serializeMessage } from '@modelcontextprotocol/server';
import type { Session } from '@quiver/runtime';
import { describeCallArguments } from '@quiver/types';
import { toCallToolResult } from './content.js';
import { isPlainToolsCall, plainCallToolResult } from './lean-call.js';

let warmed: Promise<void> | undefined;

/** What serve's own call path does around the session, each run on nothing (see warmCallPath). */
export interface CallPathSteps {
  /** Resolves a tool's name and arguments as a call does (a lookup in the listing and pool). */
  target(name: string): void;
  /** Dispatches a call whose `execute` runs nothing and encodes its answer as a call's result. */
  dispatch(): Promise<unknown>;
}

/**
 * Runs once per process, one step per event-loop turn, what a first `tools/call` would otherwise
 * compile on its way: the lean path's request check and result encoding, the call's target
 * lookup and its dispatch with a stand-in for the session's run (no tool runs, no event is
 * published or logged), the escaping of a call's arguments for the console, the argument schemas
 * of the session's tools (`session.warmCalls`, which ran the pipeline on its unseen stand-in tool
 * while serve waited for its bridged servers), and a permission check of one of the session's
 * tools (`session.check`, which asks and runs nothing and writes no event). Resolves when every
 * step ran and what it started has settled (never rejects); a later call returns the same
 * promise. Serve over stdio awaits it before it reads the client's first message, so none of it
 * lands between the client's listing and its first call; elsewhere it starts after `initialize`,
 * and a request that arrives meanwhile waits for one step at most.
 */
export function warmCallPath(session: Session, calls?: CallPathSteps): Promise<void> {
  warmed ??= runSteps(session, calls);
  return warmed;
}

function runSteps(session: Session, calls: CallPathSteps | undefined): Promise<void> {
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
    () => calls?.dispatch(),
    // The console's record of a call escapes its arguments: V8 compiles that Unicode-class
    // pattern when it first runs (~0.5 ms), and the escaping runs faster still the second time.
    () => {
      describeCallArguments({ warm: 'up' });
      describeCallArguments({ warm: 'up' });
    },
    () => session.warmCalls(),
    () => {
      const name = firstTool();
      if (name !== undefined) return session.check([{ id: 'warm-up', name, args: {} }]);
    },
  ];
  const started: unknown[] = [];
  return new Promise<void>((resolve) => {
    const next = () => {
      const step = steps.shift();
      if (step === undefined) {
        void Promise.allSettled(started).then(() => resolve());
        return;
      }
      try {
        started.push(step());
      } catch {
        // Only a warm-up: the first call does the same work and reports its own errors.
      }
      setImmediate(next);
    };
    setImmediate(next);
  });
}
