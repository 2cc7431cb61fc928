import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { BIN } from './helpers.js';
import { serveEnv } from './serve-fixtures.js';

export interface RunningHttpServe {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `quiver serve --http 127.0.0.1:0 --json …args` in `dir` and resolves once it printed its URL. */
export function startHttpServe(dir: string, args: string[] = []): Promise<RunningHttpServe> {
  const child = spawn(
    process.execPath,
    [BIN, '--trust-project', 'serve', '--http', '127.0.0.1:0', '--json', ...args],
    { cwd: dir, env: serveEnv() },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0) {
        const { url } = JSON.parse(stdout.slice(0, newline)) as { url: string };
        resolve({ child, url, stderr: () => stderr, stop });
      }
    });
    child.on('exit', (code) =>
      reject(new Error(`quiver serve exited with ${code} before it started: ${stderr}`)),
    );
  });
}

const PROTOCOL_VERSION = '2025-11-25';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A raw `initialize` POST, as a client that then goes away would send it. */
export async function rawInitialize(
  url: string,
): Promise<{ status: number; sessionId: string | undefined; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  const body = await response.text();
  const sessionId = response.headers.get('mcp-session-id') ?? undefined;
  if (sessionId !== undefined) await rawNotify(url, sessionId, 'notifications/initialized');
  return { status: response.status, sessionId, body };
}

async function rawNotify(url: string, sessionId: string, method: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', method }),
  });
  await response.text();
}

/** A raw `tools/list` in a session: its HTTP status and body. */
export async function rawListTools(
  url: string,
  sessionId: string,
): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  return { status: response.status, body: await response.text() };
}

/** Opens the session's standalone SSE stream (GET) and keeps it open until `close()`. */
export async function openEventStream(
  url: string,
  sessionId: string,
): Promise<{ status: number; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'GET',
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': PROTOCOL_VERSION,
    },
    signal: abort.signal,
  });
  // Read in the background so the stream stays open; the abort ends it.
  void response.body?.pipeTo(new WritableStream()).catch(() => {});
  return { status: response.status, close: () => abort.abort() };
}
