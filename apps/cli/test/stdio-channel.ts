import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { BIN, tempDirs } from './helpers.js';
import { serveEnv } from './serve-fixtures.js';

export interface JsonRpcReply {
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A Quiver process on raw stdio, for what an SDK client never sends: bytes, not messages. */
export interface RawChannel {
  child: ChildProcessWithoutNullStreams;
  replies: JsonRpcReply[];
  stderr: () => string;
  /** Resolves with the first reply `match` accepts, or rejects after `timeoutMs`. */
  reply(match: (reply: JsonRpcReply) => boolean, timeoutMs?: number): Promise<JsonRpcReply>;
  /** Writes, waiting for the pipe to drain as a well-behaved client does. */
  send(data: string | Buffer): Promise<void>;
  stop(): Promise<void>;
}

/** Spawns `quiver --trust-project <args>` in `dir`; `framing` says how its stdout is cut into replies. */
export function rawChannel(dir: string, args: string[], framing: 'lines' | 'content-length'): RawChannel {
  const child = spawn(process.execPath, [BIN, '--trust-project', ...args], { cwd: dir, env: serveEnv() });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.on('error', () => undefined);
  const replies: JsonRpcReply[] = [];
  const waiters = new Set<() => void>();
  let pending = Buffer.alloc(0);
  child.stdout.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      let body: Buffer | undefined;
      if (framing === 'lines') {
        const newline = pending.indexOf(0x0a);
        if (newline < 0) break;
        body = pending.subarray(0, newline);
        pending = pending.subarray(newline + 1);
      } else {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) break;
        const length = Number(/Content-Length: (\d+)/i.exec(pending.subarray(0, end).toString())?.[1]);
        if (pending.length < end + 4 + length) break;
        body = pending.subarray(end + 4, end + 4 + length);
        pending = pending.subarray(end + 4 + length);
      }
      replies.push(JSON.parse(body.toString()) as JsonRpcReply);
    }
    for (const waiter of waiters) waiter();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    child,
    replies,
    stderr: () => stderr,
    reply(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = replies.find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `no matching reply in ${timeoutMs} ms; replies: ${JSON.stringify(replies).slice(0, 2000)}; stderr: ${stderr}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async send(data) {
      if (!child.stdin.write(data)) await new Promise((resolve) => child.stdin.once('drain', resolve));
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Resident set size of a live process and its descendants (`quiver` runs the command in a child), in MiB (Linux). */
export function rssMiB(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 2nd field after the command name, which is in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {}
  }
  let total = 0;
  const visit = (id: number) => {
    try {
      total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {}
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return total;
}

/** A JSON-RPC request of at least `bytes` bytes, padded in its params. */
export function paddedRequest(id: number, method: string, bytes: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { padding: 'x'.repeat(bytes) } });
}

/** The `initialize` of a raw 2025-11-25 client with no capabilities. */
export const RAW_INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/**
 * A suite's temp directories and the raw channels it started: `const suite = rawChannelSuite(p);
 * afterEach(suite.cleanup)` (or `afterAll`); `suite.make()` a directory, `suite.keep(channel)` a
 * channel to stop. `cleanup` stops every kept channel, then removes the directories.
 */
export function rawChannelSuite(prefix: string): {
  make(): string;
  keep(channel: RawChannel): RawChannel;
  /** `quiver serve` on newline-delimited stdio in `dir`, kept, past `initialize` (2025-11-25) and `notifications/initialized`. */
  serve(dir: string): Promise<RawChannel>;
  cleanup(): Promise<void>;
} {
  const dirs = tempDirs(prefix);
  const channels: RawChannel[] = [];
  return {
    make: () => dirs.make(),
    keep: (channel) => {
      channels.push(channel);
      return channel;
    },
    serve: async (dir) => {
      const channel = rawChannel(dir, ['serve'], 'lines');
      channels.push(channel);
      await channel.send(`${JSON.stringify(RAW_INITIALIZE)}\n`);
      await channel.reply((reply) => reply.id === RAW_INITIALIZE.id);
      await channel.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      return channel;
    },
    cleanup: async () => {
      for (const channel of channels.splice(0)) await channel.stop();
      dirs.cleanup();
    },
  };
}
