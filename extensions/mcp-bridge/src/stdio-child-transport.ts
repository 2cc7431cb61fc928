import { type ChildProcess, spawn } from 'node:child_process';
import type { JSONRPCMessage, ReadBuffer, Transport } from '@modelcontextprotocol/client';
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

/**
 * The stdio transport of a bridged server, over a child process the bridge owns. The SDK's
 * `StdioClientTransport` exposes only the child's pid, not how it ended, and a server that exits
 * must be reported with its exit code; framing stays the SDK's (`ReadBuffer`,
 * `serializeMessage`), and closing follows the SDK's order (stdin end, SIGTERM, SIGKILL).
 */
export class StdioChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  // The SDK is loaded by then: openClient loads it before it builds a transport.
  private readonly readBuffer: ReadBuffer = new (clientSdk().ReadBuffer)();

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
        try {
          this.readBuffer.append(chunk);
        } catch (error) {
          // Larger than the read buffer allows: reported, then the connection ends.
          this.onerror?.(error as Error);
          this.close().catch(() => {});
          return;
        }
        this.readMessages();
      });
    });
  }

  /** Every complete line; one that is not a JSON-RPC message is reported and skipped. */
  private readMessages(): void {
    for (;;) {
      try {
        const message = this.readBuffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
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
    this.readBuffer.clear();
  }
}
