import { ID_PREFIX_BYTES } from './leading-request-id.js';
import type { Framer } from './paced-input.js';

export type LineItem =
  | { kind: 'line'; text: Buffer }
  /** A line over the limit, skipped to its newline: its size and first bytes (to find its id). */
  | { kind: 'oversize'; size: number; prefix: Buffer };

/**
 * Newline-delimited messages of at most `maxBytes`. A longer line is never held: its first bytes
 * are kept, the rest is counted and dropped up to the next newline, where reading goes on in sync.
 */
export class LineFramer implements Framer<LineItem> {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #line: Buffer[] = [];
  #lineBytes = 0;
  /** Set while skipping a line over the limit. */
  #skipping: { size: number; prefix: Buffer } | undefined;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    if (chunk.length > 0) this.#chunks.push(chunk);
  }

  next(): LineItem | undefined {
    while (this.#chunks.length > 0) {
      const chunk = this.#chunks[0] as Buffer;
      const newline = chunk.indexOf(0x0a);
      const part = newline < 0 ? chunk : chunk.subarray(0, newline);
      if (newline < 0 || newline === chunk.length - 1) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(newline + 1);
      // A whole line in one chunk (a client's usual request) is that chunk's bytes, not a copy.
      if (newline >= 0 && this.#lineBytes === 0 && !this.#skipping && part.length <= this.#maxBytes)
        return { kind: 'line', text: part };
      this.#take(part);
      if (newline < 0) continue;
      if (this.#skipping) {
        const { size, prefix } = this.#skipping;
        this.#skipping = undefined;
        return { kind: 'oversize', size, prefix };
      }
      const text = Buffer.concat(this.#line, this.#lineBytes);
      this.#line = [];
      this.#lineBytes = 0;
      return { kind: 'line', text };
    }
    return undefined;
  }

  #take(part: Buffer): void {
    if (this.#skipping) {
      this.#skipping.size += part.length;
      return;
    }
    if (this.#lineBytes + part.length <= this.#maxBytes) {
      if (part.length > 0) this.#line.push(part);
      this.#lineBytes += part.length;
      return;
    }
    const head = Buffer.concat([...this.#line, part]).subarray(0, ID_PREFIX_BYTES);
    this.#skipping = { size: this.#lineBytes + part.length, prefix: Buffer.from(head) };
    this.#line = [];
    this.#lineBytes = 0;
  }
}
