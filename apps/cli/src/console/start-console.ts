import { describeCallArguments, visibleText } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { pendingDefinitionChanges } from '../commands/pending-definition-changes.js';
import { mcpServerStatus } from '../mcp-server-problems.js';
import { CliError, EXIT } from '../output.js';
import { ConsoleHub } from './console-hub.js';
import { startConsoleServer } from './console-server.js';
import { approveDefinition, definitionReviews } from './definition-reviews.js';
import { newConsoleToken, writeConsoleRecord } from './runtime-records.js';
import { trustFromPage, trustPage } from './trust-page.js';

/** How long an ask waits for a console page's answer unless `--console-ask-timeout` says otherwise. */
export const DEFAULT_CONSOLE_ASK_TIMEOUT_S = 300;

export interface RunningConsole {
  readonly hub: ConsoleHub;
  readonly url: string;
  close(): Promise<void>;
}

/** Reads `--console-ask-timeout`: whole seconds, at least 1. */
export function parseConsoleAskTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CONSOLE_ASK_TIMEOUT_S * 1000;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86_400)
    throw new CliError(
      `--console-ask-timeout must be a whole number of seconds from 1 to 86400, not ${JSON.stringify(value)}.`,
      'Give whole seconds, e.g. --console-ask-timeout 120.',
      EXIT.usage,
    );
  return seconds * 1000;
}

/**
 * The console of this process: its server on loopback and its record in the runtime directory,
 * which `quiver console` reads. The secret lives in this process's memory and that record only.
 */
export async function startConsole(options: {
  kind: string;
  quiver: () => Quiver;
  askTimeoutMs: number;
}): Promise<RunningConsole> {
  const hub = new ConsoleHub({
    askTimeoutMs: options.askTimeoutMs,
    servers: () => serverStates(options.quiver()),
  });
  const token = newConsoleToken();
  const server = await startConsoleServer({
    hub,
    token,
    history: (query, limit) => recentCalls(options.quiver(), query, limit),
    reviews: () => definitionReviews(options.quiver()),
    approveReview: (body) => approveDefinition(options.quiver(), body),
    trust: () => trustPage(options.quiver()),
    trustAnswer: (body) => trustFromPage(options.quiver(), body),
  });
  const quiver = options.quiver();
  const removeRecord = writeConsoleRecord({
    pid: process.pid,
    kind: options.kind,
    url: server.url,
    token,
    workspace: quiver.host.options.workspace,
    startedAt: Date.now(),
  });
  return {
    hub,
    url: server.url,
    async close() {
      removeRecord();
      await server.close();
    },
  };
}

/** Each configured MCP server: its state, how many tool definitions are pinned, which changed ones wait for review. */
async function serverStates(quiver: Quiver): Promise<unknown[]> {
  const pins = await quiver.host.trustStorage.readPins().catch(() => undefined);
  const pending = pins === undefined ? [] : pendingDefinitionChanges(pins);
  return mcpServerStatus(quiver).map((status) => ({
    server: visibleText(status.server),
    state: status.state,
    ...(status.lastError ? { lastError: visibleText(status.lastError) } : {}),
    pinnedTools: Object.keys(pins?.servers[status.server] ?? {}).length,
    pendingReview: pending
      .filter((change) => change.server === status.server)
      .map((change) => visibleText(change.tool)),
  }));
}

/** The event log's calls, newest sessions first, whose tool, arguments or outcome contain the query. */
async function recentCalls(quiver: Quiver, query: string, limit: number): Promise<unknown[]> {
  const log = quiver.host.eventLog;
  const needle = query.trim().toLowerCase();
  const found: unknown[] = [];
  for (const session of await log.recentSessions(50)) {
    const calls = await log.sessionCalls(session.id);
    for (const call of [...calls].reverse()) {
      const args = describeCallArguments(call.args, 400);
      const line = {
        sessionId: session.id,
        callId: call.callId,
        toolName: visibleText(call.toolName),
        arguments: args,
        status: call.status,
        ...(call.code ? { code: visibleText(call.code) } : {}),
        ...(call.startedAt === undefined ? {} : { startedAt: call.startedAt }),
        ...(call.durationMs === undefined ? {} : { durationMs: call.durationMs }),
      };
      if (needle !== '' && !JSON.stringify(line).toLowerCase().includes(needle)) continue;
      found.push(line);
      if (found.length >= limit) return found;
    }
  }
  return found;
}
