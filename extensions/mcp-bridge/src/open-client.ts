import type { Client } from '@modelcontextprotocol/client';
import { CallRouter } from './call-router.js';
import { childEnvironment } from './child-environment.js';
import { loadClientSdk } from './client-sdk.js';
import { type HttpServerConfig, isStdioServerConfig, type McpServerConfig } from './config.js';
import { authFailureOf, bridgeAuthProvider } from './oauth-connect.js';
import { type ServerExit, StdioChildTransport } from './stdio-child-transport.js';

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

export interface OpenedClient {
  client: Client;
  transport: TransportKind;
  router: CallRouter;
}

type ClientClass = Awaited<ReturnType<typeof loadClientSdk>>['Client'];

export interface OpenClientOptions {
  config: McpServerConfig;
  /** The configured name, for the message that says how to sign in to a remote server. */
  server?: string;
  clientVersion: string;
  /** Receives the server's stderr (stdio servers only). */
  onStderr: (text: string) => void;
  /** Told how a stdio server's process ended (before the connection reports it closed). */
  onExit?: (exit: ServerExit) => void;
  /** Set before connecting, so no notification sent right after initialization is missed. */
  prepare: (client: Client) => void;
  /** Every client created, so a timed-out attempt can still be closed. */
  onCreated: (client: Client) => void;
  signal: AbortSignal;
}

function newClient(Client: ClientClass, options: OpenClientOptions, negotiate = false): Client {
  // Over Streamable HTTP the SDK asks the server which revisions it offers (server/discover on
  // the connection itself) and speaks 2026-07-28 to a server that offers it, the 2025 handshake
  // to any other. Over stdio its probe would need a second start of the server's process.
  const client = new Client(
    { name: 'quiver-mcp-bridge', version: options.clientVersion },
    negotiate ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  options.prepare(client);
  options.onCreated(client);
  return client;
}

function httpStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return status;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && code >= 400 && code < 600) return code;
  const match = /\b(4\d\d)\b/.exec(error instanceof Error ? error.message : '');
  return match ? Number(match[1]) : undefined;
}

async function openHttp(config: HttpServerConfig, options: OpenClientOptions): Promise<OpenedClient> {
  const { Client, SSEClientTransport, StreamableHTTPClientTransport } = await loadClientSdk();
  const url = new URL(config.url);
  const server = options.server ?? url.host;
  const requestInit = { headers: config.headers };
  const connectOptions = { timeout: config.connectTimeoutMs, signal: options.signal };
  const router = new CallRouter();
  if (config.transport === 'sse') {
    const client = newClient(Client, options);
    const transport = new SSEClientTransport(url, { requestInit, ...bridgeAuthProvider(server, config) });
    await client.connect(transport, connectOptions).catch((error: unknown) => {
      throw authFailureOf(server, config, error) ?? error;
    });
    router.attach(transport);
    return { client, transport: 'sse', router };
  }
  const client = newClient(Client, options, true);
  try {
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit,
      ...bridgeAuthProvider(server, config),
    });
    await client.connect(transport, connectOptions);
    router.attach(transport);
    return { client, transport: 'streamable-http', router };
  } catch (error) {
    // A 401 asks for a sign-in; falling back to SSE would only report SSE's error instead.
    const authFailure = authFailureOf(server, config, error);
    if (authFailure !== undefined) throw authFailure;
    const status = httpStatus(error);
    // Servers from before Streamable HTTP answer its POST with a 4xx; they speak SSE.
    if (config.transport === 'streamable-http' || status === undefined || status < 400 || status >= 500)
      throw error;
    await client.close().catch(() => {});
    const fallback = newClient(Client, options);
    const transport = new SSEClientTransport(url, { requestInit, ...bridgeAuthProvider(server, config) });
    await fallback.connect(transport, connectOptions);
    router.attach(transport);
    return { client: fallback, transport: 'sse', router };
  }
}

/** Starts the transport for one configured server and completes the MCP handshake. */
export async function openClient(options: OpenClientOptions): Promise<OpenedClient> {
  const { config } = options;
  if (!isStdioServerConfig(config)) return openHttp(config, options);
  const { Client } = await loadClientSdk();
  const transport = new StdioChildTransport({
    command: config.command,
    args: config.args,
    env: childEnvironment(config.env),
    cwd: config.cwd,
    onStderr: options.onStderr,
    onExit: (exit) => options.onExit?.(exit),
  });
  const client = newClient(Client, options);
  const router = new CallRouter();
  await client.connect(transport, { timeout: config.connectTimeoutMs, signal: options.signal });
  router.attach(transport);
  return { client, transport: 'stdio', router };
}
