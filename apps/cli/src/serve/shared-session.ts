import { randomUUID } from 'node:crypto';
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { type Session, TOOL_SEARCH_TOOL_NAME } from '@quiver/runtime';
import { errorMessage } from '@quiver/types';
import type { SharedSessionRecords } from './shared-session-records.js';

/**
 * One MCP session as seen by a replica sharing it: keeps the shared record current (tools found
 * by tool_search) and holds each message to the client until the record says what it reports,
 * so a client sending its next request to another replica finds the state it was just shown.
 */
export class SharedSessionState {
  readonly #records: SharedSessionRecords;
  readonly #log: (message: string) => void;
  /** Names this replica's session has revealed, or learned from the record and revealed again. */
  readonly #revealed = new Set<string>();
  /** Requests this replica sent to the client (elicitations, sampling) still waiting for an answer. */
  readonly #asked = new Set<RequestId>();
  #writes: Promise<void> = Promise.resolve();
  #watched: Session | undefined;
  #unwatch = () => {};
  id: string | undefined;

  constructor(
    records: SharedSessionRecords,
    log: (message: string) => void,
    revealed: readonly string[] = [],
  ) {
    this.#records = records;
    this.#log = log;
    for (const name of revealed) this.#revealed.add(name);
  }

  /** Waits for `write` before any later message to the client goes out. */
  write(write: Promise<void>): void {
    const settled = write.catch((error: unknown) =>
      this.#log(`could not update the shared MCP session record: ${errorMessage(error)}`),
    );
    this.#writes = Promise.all([this.#writes, settled]).then(() => {});
  }

  /**
   * Records the tools each successful tool_search of `session` finds. A configuration reload
   * gives the connection a new session: following it forgets what the old one revealed, so
   * `catchUp` reveals the recorded tools again.
   */
  follow(session: Session): void {
    if (this.#watched === session) return;
    this.#unwatch();
    this.#watched = session;
    this.#revealed.clear();
    this.#unwatch = session.events.subscribe(
      (event) => {
        if (event.toolName !== TOOL_SEARCH_TOOL_NAME) return;
        if (!event.success) return;
        const found =
          (event.result.structured as { tools?: Array<{ name?: unknown }> } | undefined)?.tools ?? [];
        const names = found
          .map((tool) => tool.name)
          .filter((name): name is string => typeof name === 'string');
        const fresh = names.filter((name) => !this.#revealed.has(name));
        for (const name of fresh) this.#revealed.add(name);
        if (fresh.length > 0 && this.id !== undefined) this.write(this.#records.reveal(this.id, fresh));
      },
      ['tool.execution_complete'],
    );
  }

  /** Reveals on this replica what another replica's tool_search found. */
  async catchUp(session: Session, revealed: readonly string[]): Promise<void> {
    this.follow(session);
    const missing = revealed.filter((name) => !this.#revealed.has(name));
    if (missing.length === 0) return;
    for (const name of missing) this.#revealed.add(name);
    await revealAgain(session, missing);
  }

  /**
   * The ids of answers in a POST body that answer no request of this replica: the client sent
   * them to a replica other than the one that asked (elicitations are pinned to it).
   */
  strayAnswers(body: unknown): RequestId[] {
    const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
    return messages
      .filter((message) => isJSONRPCResponse(message) && message.id !== undefined)
      .map((message) => (message as { id: RequestId }).id)
      .filter((id) => !this.#asked.has(id));
  }

  /** The transport as the SDK server should use it: messages wait for pending record writes. */
  guard<T extends Transport>(transport: T): T {
    const settled = () => this.#writes;
    const asked = this.#asked;
    const forward = (message: JSONRPCMessage, options: unknown) =>
      (transport.send as (message: JSONRPCMessage, options: unknown) => Promise<void>).call(
        transport,
        message,
        options,
      );
    return new Proxy(transport, {
      get(target, property) {
        if (property === 'send')
          return async (message: JSONRPCMessage, options?: unknown) => {
            if (isJSONRPCRequest(message)) asked.add(message.id);
            await settled();
            return forward(message, options);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
      set(target, property, value) {
        if (property !== 'onmessage' || typeof value !== 'function')
          return Reflect.set(target, property, value, target);
        const deliver = value as (message: JSONRPCMessage, extra?: unknown) => void;
        target.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
          if (isJSONRPCResponse(message) && message.id !== undefined) asked.delete(message.id);
          deliver(message, extra);
        };
        return true;
      },
    });
  }
}

/** Runs tool_search for exactly `names`, so the session shows them as it does on the replica that found them. */
async function revealAgain(session: Session, names: readonly string[]): Promise<void> {
  if (!session.pool().executables.has(TOOL_SEARCH_TOOL_NAME)) return;
  const limit = 50;
  for (let start = 0; start < names.length; start += limit) {
    const chunk = names.slice(start, start + limit);
    const query = `/^(?:${chunk.map(escapeRegExp).join('|')})$/`;
    await session.execute([
      {
        id: `reveal-${randomUUID()}`,
        name: TOOL_SEARCH_TOOL_NAME,
        args: { query, mode: 'regex', limit: chunk.length },
      },
    ]);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
