import { ID_PREFIX_BYTES } from './leading-request-id.js';
import type { Framer } from './paced-input.js';

export type FrameItem =
  | { kind: 'body'; body: Buffer }
  /** A body over the limit, skipped by its Content-Length: its size and first bytes (to find its id). */
  | { kind: 'oversize'; size: number; prefix: Buffer }
  /** Bytes that are not a frame; what was wrong, reading goes on at the next Content-Length header. */
  | { kind: 'framing'; problem: string };

/** A header block longer than this without its blank line is not one. */
export const MAX_HEADER_BYTES = 8192;
const HEADER_END = Buffer.from('\r\n\r\n');
const NEXT_HEADER = 'content-length:';

type State =
  | { name: 'header'; head: Buffer }
  | { name: 'body'; size: number; parts: Buffer[]; received: number }
  | { name: 'skip'; size: number; left: number; prefix: Buffer }
  | { name: 'resync'; carry: Buffer };

/**
 * Content-Length framing (as LSP), bounded: a body over `maxBytes` is skipped by its length and
 * reported, a header block without a usable Content-Length is reported and reading resumes at
 * the next `Content-Length:` header; no more than one header block (or the first bytes of a
 * skipped body) is ever held besides the body being read.
 */
export class ContentLengthFramer implements Framer<FrameItem> {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #state: State = { name: 'header', head: Buffer.alloc(0) };

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    if (chunk.length > 0) this.#chunks.push(chunk);
  }

  next(): FrameItem | undefined {
    for (;;) {
      const state = this.#state;
      if (state.name === 'resync') {
        if (!this.#resync(state)) return undefined;
        continue;
      }
      const chunk = this.#chunks.shift();
      if (!chunk) return undefined;
      if (state.name === 'header') {
        const item = this.#header(state, chunk);
        if (item) return item;
      } else if (state.name === 'body') {
        const take = Math.min(chunk.length, state.size - state.received);
        state.parts.push(chunk.subarray(0, take));
        state.received += take;
        this.#putBack(chunk.subarray(take));
        if (state.received === state.size) {
          this.#state = { name: 'header', head: Buffer.alloc(0) };
          return { kind: 'body', body: Buffer.concat(state.parts, state.size) };
        }
      } else {
        const take = Math.min(chunk.length, state.left);
        if (state.prefix.length < ID_PREFIX_BYTES)
          state.prefix = Buffer.concat([
            state.prefix,
            chunk.subarray(0, Math.min(take, ID_PREFIX_BYTES - state.prefix.length)),
          ]);
        state.left -= take;
        this.#putBack(chunk.subarray(take));
        if (state.left === 0) {
          this.#state = { name: 'header', head: Buffer.alloc(0) };
          return { kind: 'oversize', size: state.size, prefix: state.prefix };
        }
      }
    }
  }

  #putBack(rest: Buffer): void {
    if (rest.length > 0) this.#chunks.unshift(rest);
  }

  #header(state: { name: 'header'; head: Buffer }, chunk: Buffer): FrameItem | undefined {
    // Line breaks between frames are tolerated.
    const input = state.head.length === 0 ? skipLineBreaks(chunk) : chunk;
    const room = MAX_HEADER_BYTES + HEADER_END.length - state.head.length;
    this.#putBack(input.subarray(room));
    const head = Buffer.concat([state.head, input.subarray(0, room)]);
    const end = head.indexOf(HEADER_END);
    if (end < 0) {
      if (head.length < MAX_HEADER_BYTES + HEADER_END.length) {
        state.head = head;
        return undefined;
      }
      return this.#lost(
        head.subarray(1),
        `a header block longer than ${MAX_HEADER_BYTES} bytes without the blank line (\\r\\n\\r\\n) that ends it`,
      );
    }
    this.#putBack(head.subarray(end + HEADER_END.length));
    const parsed = parseHeaders(head.subarray(0, end).toString('latin1'));
    if (typeof parsed === 'string') return this.#lost(Buffer.alloc(0), parsed);
    if (parsed === 0) {
      this.#state = { name: 'header', head: Buffer.alloc(0) };
      return { kind: 'body', body: Buffer.alloc(0) };
    }
    this.#state =
      parsed > this.#maxBytes
        ? { name: 'skip', size: parsed, left: parsed, prefix: Buffer.alloc(0) }
        : { name: 'body', size: parsed, parts: [], received: 0 };
    return undefined;
  }

  /** Reports bytes that are not a frame and looks for the next header from `rest` on. */
  #lost(rest: Buffer, problem: string): FrameItem {
    this.#putBack(rest);
    this.#state = { name: 'resync', carry: Buffer.alloc(0) };
    return { kind: 'framing', problem };
  }

  /** True once the next `Content-Length:` is found (reading goes on there); false when more bytes are needed. */
  #resync(state: { name: 'resync'; carry: Buffer }): boolean {
    for (let chunk = this.#chunks.shift(); chunk; chunk = this.#chunks.shift()) {
      const text = Buffer.concat([state.carry, chunk]);
      const at = text.toString('latin1').toLowerCase().indexOf(NEXT_HEADER);
      if (at >= 0) {
        this.#putBack(text.subarray(at));
        this.#state = { name: 'header', head: Buffer.alloc(0) };
        return true;
      }
      state.carry = Buffer.from(text.subarray(Math.max(0, text.length - NEXT_HEADER.length + 1)));
    }
    return false;
  }
}

function skipLineBreaks(chunk: Buffer): Buffer {
  let start = 0;
  while (start < chunk.length && (chunk[start] === 0x0d || chunk[start] === 0x0a)) start += 1;
  return chunk.subarray(start);
}

/** The Content-Length of a header block, or what is wrong with the block. */
function parseHeaders(block: string): number | string {
  let length: string | undefined;
  const names: string[] = [];
  for (const line of block.split('\r\n')) {
    const match = /^([^:\s]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match) return `a header line that is not "Name: value" (${JSON.stringify(line.slice(0, 80))})`;
    const name = (match[1] as string).toLowerCase();
    names.push(match[1] as string);
    if (name === 'content-length') {
      // Two different lengths leave no way to know where the body ends (HTTP refuses them too).
      if (length !== undefined && length !== match[2])
        return `two Content-Length headers that disagree (${JSON.stringify(length.slice(0, 20))} and ${JSON.stringify((match[2] as string).slice(0, 20))})`;
      length = match[2];
    }
  }
  if (length === undefined)
    return `a header block without Content-Length (it had ${names.map((name) => JSON.stringify(name)).join(', ')}); every message needs "Content-Length: <bytes>\\r\\n\\r\\n" before its body`;
  if (!/^\d{1,15}$/.test(length))
    return `Content-Length ${JSON.stringify(length.slice(0, 40))} is not a number of bytes`;
  return Number(length);
}
