import { LOG_LEVEL_META_KEY, type LoggingLevel } from '@modelcontextprotocol/server';
import { type EventBus, LOG_LEVELS, type QuiverEvent } from '@quiver/types';

const SEVERITY: readonly LoggingLevel[] = LOG_LEVELS;

/** Log messages of one call the client may get; more are dropped, and one last message says how many. */
const MESSAGES_PER_CALL = 100;

type SendLog = (params: { level: LoggingLevel; logger: string; data: string }) => Promise<void>;

/**
 * A running call's own log messages (a first-party or plugin tool's `emit({ type: 'log' })`) go
 * to the client that made the call as `notifications/message`, from the level it set with
 * `logging/setLevel`, or from `info` when it set none: they describe the call the client is
 * waiting for. Bridged servers' messages are another matter (see ServerLogForwarding).
 */
export class ToolLogForwarding {
  readonly #calls = new Map<
    string,
    { send: SendLog; minimum: LoggingLevel | null | undefined; sent: number; dropped: number }
  >();
  readonly #unsubscribe: () => void;
  readonly #minimum: () => LoggingLevel | undefined;

  constructor(events: EventBus, minimum: () => LoggingLevel | undefined) {
    this.#minimum = minimum;
    this.#unsubscribe = events.subscribe((event) => this.#forward(event), ['tool.execution_log']);
  }

  /**
   * Forwards the call's log messages until the returned function is called. `minimum` is the
   * level a 2026-07-28 request asked for in its `_meta` (`null`: it asked for none, so none are
   * sent); undefined falls back to the connection's `logging/setLevel`.
   */
  track(callId: string, send: SendLog, minimum?: LoggingLevel | null): () => void {
    this.#calls.set(callId, { send, minimum, sent: 0, dropped: 0 });
    return () => {
      const call = this.#calls.get(callId);
      this.#calls.delete(callId);
      if (call && call.dropped > 0 && call.minimum !== null)
        void call
          .send({
            level: 'warning',
            logger: 'quiver',
            data: `${call.dropped} more log messages of this call were dropped`,
          })
          .catch(() => {});
    };
  }

  close(): void {
    this.#unsubscribe();
    this.#calls.clear();
  }

  #forward(event: QuiverEvent): void {
    if (event.type !== 'tool.execution_log') return;
    const call = this.#calls.get(event.callId);
    if (!call || call.minimum === null) return;
    const minimum = call.minimum ?? this.#minimum() ?? 'info';
    if (SEVERITY.indexOf(event.level) < SEVERITY.indexOf(minimum)) return;
    if (call.sent >= MESSAGES_PER_CALL) {
      call.dropped += 1;
      return;
    }
    call.sent += 1;
    void call.send({ level: event.level, logger: event.toolName, data: event.message }).catch(() => {});
  }
}

/**
 * The level a 2026-07-28 request asks log messages from (`_meta["io.modelcontextprotocol/logLevel"]`),
 * or null when it names none: such a request gets no log messages.
 */
export function requestedLogLevel(envelope: object): LoggingLevel | null {
  const level = (envelope as Record<string, unknown>)[LOG_LEVEL_META_KEY];
  return typeof level === 'string' && (SEVERITY as readonly string[]).includes(level)
    ? (level as LoggingLevel)
    : null;
}
