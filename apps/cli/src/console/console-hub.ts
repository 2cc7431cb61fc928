import { randomUUID } from 'node:crypto';
import {
  describeCallArguments,
  type PermissionAnswer,
  type PermissionPrompt,
  type QuiverEvent,
  renderPermissionQuestion,
  visibleText,
} from '@quiver/types';
import type { ConsoleAsk, ConsoleCall, ConsoleMessage, ConsoleSession, ConsoleSnapshot } from './wire.js';

export type {
  ConsoleAnswer,
  ConsoleAsk,
  ConsoleCall,
  ConsoleMessage,
  ConsoleSession,
  ConsoleSnapshot,
} from './wire.js';

interface PendingAsk {
  ask: ConsoleAsk;
  settle(answer: PermissionAnswer, outcome: string): void;
}

const MAX_CALLS = 300;

/**
 * A call's name and arguments as it was requested, kept on its record (a symbol key: never sent to
 * a page) until the record is first shown (a page told of it, or a snapshot): a gateway with no
 * page open does not describe every call's arguments.
 */
const REQUESTED = Symbol('requested');
type RecordedCall = ConsoleCall & { [REQUESTED]?: { toolName: string; args: unknown } | undefined };

/** Outside text escaped as every prompt escapes it, cut with a marker. */
function boundedVisibleText(text: string, maxChars: number): string {
  const shown = visibleText(text);
  return shown.length <= maxChars
    ? shown
    : `${shown.slice(0, maxChars)}… (${shown.length - maxChars} more characters)`;
}
const MAX_DENY_MESSAGE_CHARS = 2_000;

/**
 * The live state of one process's console: sessions, recent calls, asks waiting for a person,
 * and the pages connected to it. Pages are told each change as a message.
 */
export class ConsoleHub {
  readonly #sessions = new Map<string, ConsoleSession>();
  readonly #calls = new Map<string, RecordedCall>();
  /**
   * The recorded calls' ids in a ring, the oldest at #next once MAX_CALLS are kept: the one to
   * drop is found there, not as the Map's first key, which V8 reaches by skipping every entry
   * deleted before it (up to a few hundred at this size, a call).
   */
  readonly #order: string[] = [];
  #next = 0;
  readonly #asks = new Map<string, PendingAsk>();
  readonly #pages = new Set<(message: ConsoleMessage) => void>();
  readonly #servers: () => Promise<unknown[]>;
  readonly askTimeoutMs: number;

  constructor(options: { askTimeoutMs: number; servers?: () => Promise<unknown[]> }) {
    this.askTimeoutMs = options.askTimeoutMs;
    this.#servers = options.servers ?? (async () => []);
  }

  /** True while at least one page listens: only then may an ask wait for it. */
  get pageConnected(): boolean {
    return this.#pages.size > 0;
  }

  connectPage(listener: (message: ConsoleMessage) => void): () => void {
    this.#pages.add(listener);
    return () => {
      this.#pages.delete(listener);
    };
  }

  async snapshot(): Promise<ConsoleSnapshot> {
    const servers = await this.servers();
    return {
      sessions: [...this.#sessions.values()],
      calls: [...this.#calls.values()].map((call) => this.#described(call)),
      asks: [...this.#asks.values()].map((pending) => pending.ask),
      servers,
    };
  }

  /** The MCP servers' states; an empty list when they cannot be read now (the page asks again). */
  async servers(): Promise<unknown[]> {
    try {
      return await this.#servers();
    } catch {
      return [];
    }
  }

  #send(message: ConsoleMessage): void {
    if (this.#pages.size === 0) return;
    if (message.type === 'call') this.#described(message.call);
    for (const page of this.#pages) page(message);
  }

  #described(call: RecordedCall): ConsoleCall {
    const requested = call[REQUESTED];
    if (requested !== undefined) {
      call[REQUESTED] = undefined;
      call.toolName = visibleText(requested.toolName);
      call.arguments = describeCallArguments(requested.args, 2_000);
    }
    return call;
  }

  /** Follows a session's events until the returned function is called (when the session closes). */
  watchSession(
    session: { id: string; events: { subscribe(listener: (event: QuiverEvent) => void): () => void } },
    info: Omit<ConsoleSession, 'id' | 'startedAt'>,
  ): () => void {
    const entry: ConsoleSession = { id: session.id, startedAt: Date.now(), ...info };
    this.#sessions.set(session.id, entry);
    this.#send({ type: 'session', session: entry });
    const unsubscribe = session.events.subscribe((event) => this.#onEvent(event));
    return () => {
      unsubscribe();
      entry.closedAt = Date.now();
      this.#send({ type: 'session', session: entry });
    };
  }

  /** The client's name once it is known (after initialize). */
  describeSession(id: string, patch: Partial<Pick<ConsoleSession, 'client' | 'trust'>>): void {
    const entry = this.#sessions.get(id);
    if (!entry) return;
    Object.assign(entry, patch);
    this.#send({ type: 'session', session: entry });
  }

  #call(event: { callId: string; sessionId: string; toolName?: string }, args?: unknown): ConsoleCall {
    let call: RecordedCall | undefined = this.#calls.get(event.callId);
    if (!call) {
      call = {
        callId: event.callId,
        sessionId: event.sessionId,
        toolName: '',
        arguments: '',
        status: 'running',
        startedAt: Date.now(),
        [REQUESTED]: { toolName: event.toolName ?? '', args },
      };
      this.#calls.set(event.callId, call);
      const oldest = this.#order[this.#next];
      this.#order[this.#next] = event.callId;
      this.#next = (this.#next + 1) % MAX_CALLS;
      if (oldest !== undefined) this.#calls.delete(oldest);
    }
    return call;
  }

  #onEvent(event: QuiverEvent): void {
    switch (event.type) {
      case 'tool.user_requested': {
        this.#call(event, event.arguments);
        break;
      }
      case 'permission.requested': {
        const call = this.#call(event);
        call.status = 'asking';
        call.decision = { behavior: 'ask', reason: visibleText(event.decision.reason) };
        this.#send({ type: 'call', call });
        break;
      }
      case 'permission.completed': {
        const call = this.#call(event);
        call.decision = {
          behavior: event.behavior,
          ...(event.scope ? { scope: event.scope } : {}),
          ...(event.rule ? { rule: visibleText(event.rule) } : {}),
          reason: boundedVisibleText(event.reason, 2_000),
        };
        if (event.behavior === 'deny') call.status = 'denied';
        else call.status = 'running';
        this.#send({ type: 'call', call });
        break;
      }
      case 'tool.execution_start': {
        const call = this.#call(event, event.arguments);
        if (event.mcpServer) call.mcpServer = visibleText(event.mcpServer);
        call.status = 'running';
        this.#send({ type: 'call', call });
        break;
      }
      case 'tool.execution_progress': {
        const call = this.#calls.get(event.callId);
        if (!call) break;
        call.progress = {
          progress: event.progress,
          ...(event.total === undefined ? {} : { total: event.total }),
          ...(event.message === undefined ? {} : { message: boundedVisibleText(event.message, 200) }),
        };
        this.#send({ type: 'call', call });
        break;
      }
      case 'tool.execution_complete': {
        const call = this.#call(event);
        if (call.status !== 'denied') call.status = event.success ? 'ok' : 'error';
        call.durationMs = event.durationMs;
        call.resultChars = event.result.value?.length ?? 0;
        if (event.resultTokens !== undefined) call.resultTokens = event.resultTokens;
        if (!event.success)
          call.error = boundedVisibleText(
            `${event.result.code ?? 'error'}: ${event.result.error ?? ''}`,
            500,
          );
        this.#send({ type: 'call', call });
        break;
      }
      default:
        break;
    }
  }

  /**
   * Shows the ask on the connected pages and waits for a person's answer, at most the ask
   * timeout; the call's cancellation ends the wait too. The question is the shared renderer's.
   */
  ask(prompt: PermissionPrompt, signal: AbortSignal, sessionId?: string): Promise<PermissionAnswer> {
    const question = renderPermissionQuestion(prompt);
    const ask: ConsoleAsk = {
      id: randomUUID(),
      callId: prompt.callId,
      ...(sessionId ? { sessionId } : {}),
      toolName: visibleText(prompt.toolName),
      lines: question.text.split('\n'),
      headline: question.headline,
      ...(question.alwaysRule === undefined ? {} : { alwaysRule: question.alwaysRule }),
      ...(question.diff === undefined ? {} : { diff: question.diff }),
      choices: question.choices,
      expiresAt: Date.now() + this.askTimeoutMs,
    };
    return new Promise<PermissionAnswer>((resolve) => {
      const settle = (answer: PermissionAnswer, outcome: string) => {
        if (!this.#asks.delete(ask.id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#send({ type: 'ask_done', id: ask.id, outcome });
        resolve(answer);
      };
      const seconds = Math.round(this.askTimeoutMs / 1000);
      const timer = setTimeout(
        () =>
          settle(
            {
              behavior: 'deny',
              reason: `nobody answered in the quiver console within ${seconds} s`,
            },
            'timed out',
          ),
        this.askTimeoutMs,
      );
      timer.unref?.();
      const onAbort = () => settle({ behavior: 'deny', reason: 'the call was cancelled' }, 'cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      this.#asks.set(ask.id, { ask, settle });
      this.#send({ type: 'ask', ask });
    });
  }

  /** A page's answer; an error text when there is no such ask or the answer is not one of the choices. */
  answer(id: string, body: unknown): string | undefined {
    const pending = this.#asks.get(id);
    if (!pending) return `no ask ${JSON.stringify(id)} is waiting (answered, timed out or cancelled)`;
    const { decision, message } = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    if (decision === 'once' || decision === 'session' || decision === 'project') {
      pending.settle({ behavior: 'allow', scope: decision }, `allowed (${decision})`);
      return undefined;
    }
    if (decision === 'deny') {
      const said = typeof message === 'string' ? message.trim().slice(0, MAX_DENY_MESSAGE_CHARS) : '';
      pending.settle(
        {
          behavior: 'deny',
          reason: said === '' ? 'denied by the person in the quiver console' : `the person said: ${said}`,
        },
        'denied',
      );
      return undefined;
    }
    return 'decision must be one of once, session, project, deny (deny may carry a message)';
  }

  /** Asks still waiting are denied when the process stops its console. */
  close(): void {
    for (const pending of [...this.#asks.values()])
      pending.settle({ behavior: 'deny', reason: 'the quiver console closed' }, 'closed');
  }
}
