import type { Readable, Writable } from 'node:stream';

/** Cuts a byte stream into messages, holding at most one partial message (bounded by the framer). */
export interface Framer<T> {
  push(chunk: Buffer): void;
  /** The next complete item, or undefined until more bytes arrive. */
  next(): T | undefined;
}

/**
 * Reads `input` one message at a time, and only while `output` keeps up: reading pauses while
 * the peer has not drained what it was sent (stdout over its high-water mark) and resumes on
 * 'drain'; bytes are read only when no complete message is waiting. So a peer that writes fast
 * and never reads makes Quiver wait, never buffer. One message per turn of the event loop lets
 * each answer reach the output before the next request is read.
 */
export class PacedInput<T> {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #framer: Framer<T>;
  readonly #deliver: (item: T) => void;
  readonly #ended: () => void;
  #scheduled = false;
  /** A complete message read after the one delivered in the turn its bytes came in: the next turn's. */
  #held: T | undefined = undefined;
  #awaitingDrain = false;
  #inputEnded = false;
  #stopped = false;

  constructor(options: {
    input: Readable;
    output: Writable;
    framer: Framer<T>;
    deliver: (item: T) => void;
    /** The input ended and every message before the end was delivered. */
    ended: () => void;
  }) {
    this.#input = options.input;
    this.#output = options.output;
    this.#framer = options.framer;
    this.#deliver = options.deliver;
    this.#ended = options.ended;
  }

  start(): void {
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    if (this.#input.readableEnded) this.#onEnd();
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#output.off('drain', this.#onDrain);
    this.#input.pause();
  }

  readonly #onData = (chunk: Buffer | string) => {
    this.#framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (this.#scheduled || this.#awaitingDrain || this.#stopped || this.#held !== undefined) {
      this.#input.pause();
      return;
    }
    this.#deliverNow();
  };

  /**
   * The turn the bytes came in delivers their first message itself, and reading goes on unpaused
   * when that was the only one (a client waiting for each answer sends one at a time): no pause,
   * resume and two turns of the event loop per request. A second complete message is held for
   * the next turn with reading paused, as `#pump` paces every message after it.
   */
  #deliverNow(): void {
    if (this.#outputBehind()) {
      this.#input.pause();
      return;
    }
    const item = this.#framer.next();
    if (item === undefined) return;
    this.#deliver(item);
    if (this.#stopped) return;
    const following = this.#framer.next();
    if (following === undefined) return;
    this.#held = following;
    this.#input.pause();
    this.#schedule();
  }

  /** True (and waiting for 'drain') while the peer has not read what it was sent. */
  #outputBehind(): boolean {
    if (!this.#output.writableNeedDrain || this.#output.destroyed) return false;
    this.#awaitingDrain = true;
    this.#output.once('drain', this.#onDrain);
    return true;
  }

  readonly #onEnd = () => {
    this.#inputEnded = true;
    this.#schedule();
  };

  readonly #onDrain = () => {
    this.#awaitingDrain = false;
    this.#schedule();
  };

  #schedule(): void {
    if (this.#scheduled || this.#awaitingDrain || this.#stopped) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#stopped || this.#outputBehind()) return;
    const item = this.#held ?? this.#framer.next();
    this.#held = undefined;
    if (item === undefined) {
      if (this.#inputEnded) {
        this.stop();
        this.#ended();
      } else this.#input.resume();
      return;
    }
    this.#deliver(item);
    this.#schedule();
  }
}
