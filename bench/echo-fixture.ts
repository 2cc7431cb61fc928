import type { SessionPolicy } from '@quiver/runtime';
import { defineTool, ok, type ToolContext } from '@quiver/types';
import { z } from 'zod';

/** The cheapest real tool: what a call path adds shows against its own `execute`. */
export const echo = defineTool({
  name: 'echo',
  description: 'Echoes text',
  input: z.object({ text: z.string() }),
  capabilities: {},
  execute: async (args) => ok(args.text),
});

/** The context for calling `echo.execute` directly, the baseline of the call-path benchmarks. */
export const directContext: ToolContext = {
  callId: 'direct',
  sessionId: 'bench',
  personalityId: 'bench',
  agent: { kind: 'main', id: 'bench' },
  turn: 1,
  signal: new AbortController().signal,
  // As Quiver's runner gives it: a tool that only needs to hear of an abort makes no AbortSignal.
  onAbort: () => () => {},
  emit: () => {},
  budget: 80_000,
  dryRun: false,
  capabilities: {},
  attachments: [],
  session: { get: () => undefined, set: () => {}, delete: () => {} },
};

/** A session policy that allows `echo` and nothing else, with no deferral. */
export const echoPolicy: SessionPolicy = {
  personalityId: 'bench',
  plugins: [],
  mcpServers: {},
  permissions: { allow: ['echo'] },
  agents: {},
  budget: { resultChars: 80_000 },
  deferLoading: { enabled: false },
};
