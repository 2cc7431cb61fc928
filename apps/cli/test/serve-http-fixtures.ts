import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import {
  type AuthorizationServer,
  type RegisteredClient,
  startAuthorizationServer,
} from '@quiver/test-utils/authorization-server';
import { BIN, write } from './helpers.js';
import { serveEnv, serveWorkspace } from './serve-fixtures.js';

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

/** A `quiver serve --http` whose callers sign in: `serve.auth` against a local authorization server. */
export interface SignedInServe {
  authorization: AuthorizationServer;
  serve: RunningHttpServe;
  dir: string;
  /** Stops the server and the authorization server and removes the workspace. */
  close(): Promise<void>;
}

/**
 * Starts an authorization server for `clients` and `quiver serve --http` in a serve workspace
 * whose `serve.auth` maps the `groups` claim to personalities (`group → personality id`), with
 * the workbench plugin, `plugins` besides, and `files` (path in the workspace → content).
 */
export async function startSignedInServe(options: {
  clients: RegisteredClient[];
  personalities: Record<string, string>;
  plugins?: string[];
  files?: Record<string, string>;
}): Promise<SignedInServe> {
  const authorization = await startAuthorizationServer(options.clients);
  const workspace = serveWorkspace();
  const dir = workspace.dir;
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'plugins:',
      '  - ./workbench',
      ...(options.plugins ?? []).map((plugin) => `  - ${JSON.stringify(plugin)}`),
      'defaultPersonality: dev',
      'serve:',
      '  auth:',
      `    issuer: ${authorization.issuer}`,
      `    jwksUri: ${authorization.jwksUri}`,
      '    claim: groups',
      '    personalities:',
      ...Object.entries(options.personalities).map(
        ([group, personality]) => `      ${group}: ${personality}`,
      ),
      '',
    ].join('\n'),
  );
  for (const [file, content] of Object.entries(options.files ?? {})) write(path.join(dir, file), content);
  let serve: RunningHttpServe;
  try {
    serve = await startHttpServe(dir);
  } catch (error) {
    await authorization.close();
    workspace.cleanup();
    throw error;
  }
  return {
    authorization,
    serve,
    dir,
    async close() {
      await serve.stop();
      await authorization.close();
      workspace.cleanup();
    },
  };
}

export const REVISION_2026 = '2026-07-28';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface JsonRpcAnswer {
  result?: Record<string, any>;
  error?: { code: number; message: string };
}

/**
 * One stateless 2026-07-28 request signed in as `caller`, with the headers the revision requires
 * (`Mcp-Method`, `Mcp-Name` from the tool name or task id), declaring form elicitation and, unless
 * `tasks` is false, the tasks extension. Answers the JSON-RPC message, from JSON or an SSE stream.
 */
export async function request2026(
  target: Pick<SignedInServe, 'authorization'> & { url: string },
  caller: string,
  method: string,
  params: Record<string, unknown>,
  options: { clientName: string; tasks?: boolean },
): Promise<JsonRpcAnswer> {
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  const response = await fetch(target.url, {
    method: 'POST',
    headers: {
      ...JSON_HEADERS,
      authorization: `Bearer ${await target.authorization.tokenFor(caller, target.url)}`,
      'mcp-protocol-version': REVISION_2026,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': REVISION_2026,
          'io.modelcontextprotocol/clientInfo': { name: options.clientName, version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {
            elicitation: { form: {} },
            ...(options.tasks === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } }),
          },
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  return JSON.parse(data ?? text);
}

/**
 * `state` with one significant character changed: the second-to-last (a base64url string's last
 * character may carry only unused bits), always to a different character.
 */
export function tamperedState(state: string): string {
  const at = state.length - 2;
  return `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
}
