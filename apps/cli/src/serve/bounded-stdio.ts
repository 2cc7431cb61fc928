import type { Readable, Writable } from 'node:stream';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  parseJSONRPCMessage,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { InFlightRequests } from '../stdio/in-flight-requests.js';
import { jsonNestsDeeperThan, tooDeepMessage } from '../stdio/json-depth.js';
import { ID_PREFIX_BYTES, leadingRequestId } from '../stdio/leading-request-id.js';
import { LineFramer, type LineItem } from '../stdio/line-framer.js';
import { formatBytes } from '../stdio/message-size.js';
import { PacedInput } from '../stdio/paced-input.js';
import { isPlainToolsCall, type PlainToolsCall } from './lean-call.js';

type RequestId = string | number | null;

/**
 * MCP over stdin/stdout, bounded: a line over `maxMessageBytes` is skipped to its newline and
 * answered with -32600 (to its request id when its first bytes name one), a line that is not
 * JSON with -32700, a line that is JSON but no JSON-RPC message with -32600, a request past
 * `maxInFlight` under way with -32000 (see InFlightRequests); the connection goes on in every case. Reading pauses while the client has not drained stdout (see PacedInput).
 * The SDK's StdioServerTransport instead closes the connection on a line over 10 MB, answers
 * nothing to a line that does not parse, and reads on however much output the client left unread.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * Where a request goes once this transport has parsed it as a JSON-RPC message, when the server
   * that connected it sets one (TaskServer): the parse is strict, so a message with both `method`
   * and `id` can only be a request, and the SDK need not try it against each message type again.
   */
  onrequest?: (request: JSONRPCRequest) => void;
  /**
   * Where a plain `tools/call` goes first (see isPlainToolsCall), when the server sets one: it
   * returns false to leave the request to `onrequest` (the SDK's route), true when it answers it.
   */
  onplaincall?: (request: PlainToolsCall) => boolean;

  readonly #output: Writable;
  readonly #maxMessageBytes: number;
  readonly #input: PacedInput<LineItem>;
  readonly #inFlight: InFlightRequests;
  #closed = false;

  constructor(options: {
    input?: Readable;
    output?: Writable;
    maxMessageBytes: number;
    /** The client's requests under way at once; more are answered with an error. */
    maxInFlight: number;
  }) {
    const input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#maxMessageBytes = options.maxMessageBytes;
    this.#inFlight = new InFlightRequests(options.maxInFlight);
    this.#input = new PacedInput({
      input,
      output: this.#output,
      framer: new LineFramer(options.maxMessageBytes),
      deliver: (item) => this.#receive(item),
      ended: () => void this.close(),
    });
  }

  async start(): Promise<void> {
    this.#output.on('error', this.#onOutputError);
    this.#input.start();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.stop();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the stdio connection is closed'));
    this.#inFlight.settled(message);
    return new Promise((resolve, reject) => {
      const written = this.#output.write(serializeMessage(message), (error) => {
        if (error) reject(error);
      });
      if (written) resolve();
      else void this.#drained().then(resolve);
    });
  }

  #drain: Promise<void> | undefined;
  /** One 'drain' listener however many sends wait for it. */
  #drained(): Promise<void> {
    this.#drain ??= new Promise((resolve) =>
      this.#output.once('drain', () => {
        this.#drain = undefined;
        resolve();
      }),
    );
    return this.#drain;
  }

  readonly #onOutputError = (error: Error) => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };

  #receive(item: LineItem): void {
    if (item.kind === 'oversize') {
      this.#reject(
        leadingRequestId(item.prefix),
        -32600,
        `Message too large: a line of ${item.size} bytes; quiver serve reads messages of at most ${formatBytes(this.#maxMessageBytes)} (--max-message-size). The line was skipped; the connection goes on.`,
        { size: item.size, maxMessageSize: this.#maxMessageBytes },
      );
      return;
    }
    const text = item.text.toString('utf8').trim();
    if (text === '') return;
    if (jsonNestsDeeperThan(item.text)) {
      this.#reject(
        leadingRequestId(item.text.subarray(0, ID_PREFIX_BYTES)),
        -32600,
        tooDeepMessage('the line'),
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#reject(null, -32700, `Parse error: the line is not JSON (${(error as Error).message}).`);
      return;
    }
    // A plain tools/call is a JSON-RPC request as it stands: the schema check would only copy it.
    const plain = this.onplaincall !== undefined && isPlainToolsCall(value);
    let message: JSONRPCMessage;
    try {
      message = plain ? (value as JSONRPCRequest) : parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown } | null)?.id;
      this.#reject(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        -32600,
        Array.isArray(value)
          ? 'Invalid Request: batches are not part of MCP over stdio; send one JSON-RPC message per line.'
          : 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 request, notification or response.',
      );
      return;
    }
    const refused = this.#inFlight.admit(message);
    if (refused) {
      this.#reject((message as { id: RequestId }).id, refused.code, refused.message, refused.data);
      return;
    }
    if (plain && this.onplaincall?.(value as PlainToolsCall)) return;
    if (this.onrequest && 'method' in message && 'id' in message) this.onrequest(message);
    else this.onmessage?.(message);
  }

  #reject(id: RequestId, code: number, message: string, data?: unknown): void {
    if (this.#closed) return;
    const error = { code, message, ...(data === undefined ? {} : { data }) };
    this.#output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`);
  }
}
