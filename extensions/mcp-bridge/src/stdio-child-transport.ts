import { type ChildProcess, spawn } from 'node:child_process';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { clientSdk } from './client-sdk.js';

/** How a stdio server's process ended: its exit code, or the signal that ended it. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StdioChildTransportOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  onStderr: (text: string) => void;
  /** Told when the process ends, before `onclose` (its output is read by then). */
  onExit: (exit: ServerExit) => void;
}

const CLOSE_GRACE_MS = 2_000;
/** Unread output the transport holds before it gives up on the server (the SDK's stdio limit). */
const MAX_BUFFERED_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * One line of a server's output as a message, or undefined for a line that is not JSON (skipped,
 * as the SDK's `ReadBuffer` skips it). Only the envelope is checked here: the SDK's protocol layer
 * checks every message against the request, notification and response schemas when it sorts it
 * (and reports one that is none of them), so parsing it against the JSON-RPC schema here as well
 * — what `ReadBuffer` does — validated every message twice.
 */
function lineMessage(line: string): JSONRPCMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    (value as { jsonrpc?: unknown }).jsonrpc !== '2.0'
  )
    throw new Error(
      `The server wrote a line that is JSON but no JSON-RPC 2.0 message: ${line.slice(0, 200)}`,
    );
  return value as JSONRPCMessage;
}

/**
 * The stdio transport of a bridged server, over a child process the bridge owns. The SDK's
 * `StdioClientTransport` exposes only the child's pid, not how it ended, and a server that exits
 * must be reported with its exit code. Framing is the SDK's (one JSON message a line, a 10 MiB
 * limit on unread output, lines that are not JSON skipped) without its second schema parse of each
 * message (see `lineMessage`); closing follows the SDK's order (stdin end, SIGTERM, SIGKILL).
 */
export class StdioChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  /** Output not yet split into lines. */
  private buffered: Buffer | undefined;

  constructor(private readonly options: StdioChildTransportOptions) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioChildTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [...this.options.args], {
        env: this.options.env,
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('exit', (code, signal) => this.options.onExit({ code, signal }));
      child.on('close', () => {
        if (this.child === child) this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.on('data', (chunk: Buffer) => this.options.onStderr(chunk.toString('utf8')));
      child.stdout?.on('data', (chunk: Buffer) => {
        const size = (this.buffered?.length ?? 0) + chunk.length;
        if (size > MAX_BUFFERED_BYTES) {
          // Larger than the read buffer allows: reported, then the connection ends.
          this.buffered = undefined;
          this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${MAX_BUFFERED_BYTES} bytes`));
          this.close().catch(() => {});
          return;
        }
        this.buffered = this.buffered === undefined ? chunk : Buffer.concat([this.buffered, chunk], size);
        this.readMessages();
      });
    });
  }

  /** Every complete line; one that is not a JSON-RPC message is reported and skipped. */
  private readMessages(): void {
    for (;;) {
      const buffered = this.buffered;
      if (buffered === undefined) return;
      const end = buffered.indexOf(NEWLINE);
      if (end === -1) return;
      const lineEnd = end > 0 && buffered[end - 1] === 0x0d ? end - 1 : end;
      const line = buffered.toString('utf8', 0, lineEnd);
      this.buffered = end + 1 === buffered.length ? undefined : buffered.subarray(end + 1);
      try {
        const message = lineMessage(line);
        if (message !== undefined) this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(clientSdk().serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const settle = () =>
        Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
      try {
        child.stdin?.end();
      } catch {}
      await settle();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await settle();
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    this.buffered = undefined;
  }
}
