import type { Readable, Writable } from 'node:stream';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  type DataCallback,
  Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
} from 'vscode-jsonrpc/node';
import { ContentLengthFramer, type FrameItem } from '../stdio/content-length-framer.js';
import type { InFlightRequests } from '../stdio/in-flight-requests.js';
import { jsonNestsDeeperThan, tooDeepMessage } from '../stdio/json-depth.js';
import { ID_PREFIX_BYTES, leadingRequestId } from '../stdio/leading-request-id.js';
import { formatBytes } from '../stdio/message-size.js';
import { PacedInput } from '../stdio/paced-input.js';

/**
 * Writes each message at once into stdout's buffer (vscode-jsonrpc's StreamMessageWriter queues
 * them in memory instead, one write at a time), so that stdout's buffer shows how far behind the
 * client is and BoundedMessageReader stops reading while it is.
 */
export class BoundedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  readonly #output: Writable;
  readonly #inFlight: InFlightRequests | undefined;
  #drain: Promise<void> | undefined;

  /** `inFlight`: the reader's count of the client's requests under way, which each response ends. */
  constructor(output: Writable = process.stdout, inFlight?: InFlightRequests) {
    super();
    this.#output = output;
    this.#inFlight = inFlight;
    output.on('error', (error: Error) => this.fireError(error));
    output.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    this.#inFlight?.settled(message);
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    const framed = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
    if (this.#output.write(framed)) return Promise.resolve();
    this.#drain ??= new Promise((resolve) =>
      this.#output.once('drain', () => {
        this.#drain = undefined;
        resolve();
      }),
    );
    return this.#drain;
  }

  end(): void {}
}

/**
 * Reads Content-Length frames of at most `maxMessageBytes` from stdin, one message at a time and
 * only while the client drains stdout. What cannot be a message is answered, never dropped in
 * silence: a body over the limit with -32600 (to its request id when its first bytes name one),
 * a body that is not JSON or bytes that are not a frame with -32700 (the latter also on stderr),
 * a JSON body that is no JSON-RPC 2.0 message with -32600, a request past the in-flight limit
 * with -32000; reading goes on after each.
 */
export class BoundedMessageReader extends AbstractMessageReader implements MessageReader {
  readonly #maxMessageBytes: number;
  readonly #reply: (message: Message) => void;
  readonly #log: (message: string) => void;
  readonly #input: PacedInput<FrameItem>;
  readonly #inFlight: InFlightRequests | undefined;
  #callback: DataCallback | undefined;

  constructor(options: {
    input?: Readable;
    output?: Writable;
    maxMessageBytes: number;
    /** Sends an error response through the connection's writer. */
    reply: (message: Message) => void;
    log: (message: string) => void;
    /** The client's requests under way, bounded: a request past the limit is answered with an error. */
    inFlight?: InFlightRequests;
  }) {
    super();
    this.#maxMessageBytes = options.maxMessageBytes;
    this.#inFlight = options.inFlight;
    this.#reply = options.reply;
    this.#log = options.log;
    this.#input = new PacedInput({
      input: options.input ?? process.stdin,
      output: options.output ?? process.stdout,
      framer: new ContentLengthFramer(options.maxMessageBytes),
      deliver: (item) => this.#receive(item),
      ended: () => this.fireClose(),
    });
  }

  listen(callback: DataCallback): Disposable {
    this.#callback = callback;
    this.#input.start();
    return Disposable.create(() => this.#input.stop());
  }

  override dispose(): void {
    this.#input.stop();
    super.dispose();
  }

  #receive(item: FrameItem): void {
    if (item.kind === 'framing') {
      const message = `Framing error: ${item.problem}. Skipped to the next "Content-Length:" header.`;
      this.#log(message);
      this.#error(null, -32700, message);
      return;
    }
    if (item.kind === 'oversize') {
      this.#error(
        leadingRequestId(item.prefix),
        -32600,
        `Message too large: a body of ${item.size} bytes; quiver rpc reads messages of at most ${formatBytes(this.#maxMessageBytes)} (--max-message-size). The message was skipped; the connection goes on.`,
        { size: item.size, maxMessageSize: this.#maxMessageBytes },
      );
      return;
    }
    if (jsonNestsDeeperThan(item.body)) {
      this.#error(
        leadingRequestId(item.body.subarray(0, ID_PREFIX_BYTES)),
        -32600,
        tooDeepMessage('the body'),
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(item.body.toString('utf8'));
    } catch (error) {
      this.#error(null, -32700, `Parse error: the body is not JSON (${(error as Error).message}).`);
      return;
    }
    if (!isMessage(value)) {
      const id = (value as { id?: unknown } | null)?.id;
      this.#error(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        -32600,
        Array.isArray(value)
          ? 'Invalid Request: quiver rpc takes one JSON-RPC message per frame, not a batch.'
          : 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message ({"jsonrpc":"2.0", ...}).',
      );
      return;
    }
    const refused = this.#inFlight?.admit(value);
    if (refused) {
      this.#error(
        (value as unknown as { id: string | number }).id,
        refused.code,
        refused.message,
        refused.data,
      );
      return;
    }
    this.#callback?.(value);
  }

  #error(id: string | number | null, code: number, message: string, data?: unknown): void {
    this.#reply({
      jsonrpc: '2.0',
      id,
      error: { code, message, ...(data === undefined ? {} : { data }) },
    } as Message);
  }
}

function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { jsonrpc?: unknown }).jsonrpc === '2.0'
  );
}
