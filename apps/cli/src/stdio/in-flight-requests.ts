import { CliError } from '../output.js';

/** Requests one stdio connection may have under way unless told otherwise. */
export const DEFAULT_MAX_IN_FLIGHT = 64;

/** `--max-in-flight 64`: a whole number of at least 1, checked with an error that says what to pass. */
export function parseMaxInFlight(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_IN_FLIGHT;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 100_000)
    throw new CliError(
      `--max-in-flight must be a whole number from 1 to 100000, not "${text}".`,
      `For example --max-in-flight ${DEFAULT_MAX_IN_FLIGHT}.`,
    );
  return value;
}

type Id = string | number;

interface Message {
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: unknown;
  params?: unknown;
}

const isId = (id: unknown): id is Id => typeof id === 'string' || typeof id === 'number';

/**
 * Counts the client's requests under way on one connection: a request past `max` is refused
 * (its error says the limit and the option) instead of queued without bound. Only the client's
 * requests count: its responses to requests the server sent (elicitation, sampling, roots) and
 * its notifications always pass, so answering a question never waits on the limit.
 */
export class InFlightRequests {
  readonly max: number;
  readonly #option: string;
  readonly #open = new Map<Id, number>();
  #count = 0;

  constructor(max: number, option = '--max-in-flight') {
    this.max = max;
    this.#option = option;
  }

  /** For a message from the client: undefined when it may go on, else the error to answer its request with. */
  admit(message: unknown): { code: number; message: string; data: unknown } | undefined {
    const { id, method, params } = (message ?? {}) as Message;
    if (typeof method !== 'string') return undefined;
    if (!isId(id)) {
      // The SDK answers nothing to a request it was told to cancel: it is no longer under way.
      const cancelled = (params as { requestId?: unknown } | undefined)?.requestId;
      if (method === 'notifications/cancelled' && isId(cancelled)) this.#release(cancelled);
      return undefined;
    }
    if (this.#count >= this.max)
      return {
        code: -32000,
        message: `Too many requests under way on this connection: ${this.#count} of at most ${this.max}. Wait for answers before sending more, or start Quiver with a larger ${this.#option}.`,
        data: { inFlight: this.#count, maxInFlight: this.max },
      };
    this.#open.set(id, (this.#open.get(id) ?? 0) + 1);
    this.#count += 1;
    return undefined;
  }

  /** For a message to the client: a response ends the request it answers. */
  settled(message: unknown): void {
    const { id, method, result, error } = (message ?? {}) as Message;
    if (typeof method === 'string' || !isId(id) || (result === undefined && error === undefined)) return;
    this.#release(id);
  }

  #release(id: Id): void {
    const open = this.#open.get(id);
    if (open === undefined) return;
    if (open > 1) this.#open.set(id, open - 1);
    else this.#open.delete(id);
    this.#count -= 1;
  }
}
