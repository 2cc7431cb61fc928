import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import {
  CancellationTokenSource,
  createMessageConnection,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import {
  type ElicitationReply,
  type ElicitationRequest,
  type ExternalToolReply,
  type InitializeResult,
  type PermissionReply,
  type PermissionRequest,
  PROTOCOL_VERSION,
  type QuiverEvent,
  type SamplingReply,
  type SamplingRequest,
  type SessionLog,
  type SessionOpened,
  type SessionReady,
  type SessionSummary,
} from './protocol-types.js';
import { type ExternalTool, QuiverSession, type SessionOptions } from './session.js';

/** A JSON-RPC error from Quiver; `fix` says what to do when Quiver knows. */
export class QuiverRpcError extends Error {
  readonly code: number;
  /** Quiver's own error code (`personality_untrusted`, `assembly_failed`, …) when it gave one. */
  readonly quiverCode: string | undefined;
  readonly fix: string | undefined;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'QuiverRpcError';
    this.code = code;
    this.data = data;
    const details = (typeof data === 'object' && data !== null ? data : {}) as {
      code?: unknown;
      fix?: unknown;
    };
    this.quiverCode = typeof details.code === 'string' ? details.code : undefined;
    this.fix = typeof details.fix === 'string' ? details.fix : undefined;
  }
}

export interface QuiverClientOptions {
  /** The program to start; default `quiver` (on PATH). */
  command?: string;
  /** Arguments before `rpc`, e.g. a script path, `--trust-project` or `--workspace <dir>`. */
  args?: string[];
  /** Arguments after `rpc`, e.g. `--max-message-size 64MiB`. */
  rpcArgs?: string[];
  /** The workspace Quiver finds its configuration from; default the current directory. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Name the client reports in `initialize`. */
  clientName?: string;
  clientVersion?: string;
  /** Answers permission asks; without it asks follow headless rules (denied, with the rule that would allow). */
  onPermission?: (request: PermissionRequest) => PermissionReply | Promise<PermissionReply>;
  /** Answers a bridged server's question to the person; without it such questions are refused. */
  onElicitation?: (request: ElicitationRequest) => ElicitationReply | Promise<ElicitationReply>;
  /** Answers a bridged server's request for a model completion; without it they are refused. */
  onSampling?: (request: SamplingRequest) => SamplingReply | Promise<SamplingReply>;
}

const STDERR_KEPT = 16_384;

/**
 * A `quiver rpc` child process and its sessions. Start it with `QuiverClient.start()`, open
 * sessions with `createSession()`, end it with `shutdown()`.
 */
export class QuiverClient {
  readonly info: InitializeResult;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #connection: MessageConnection;
  readonly #sessions: Map<string, QuiverSession>;
  /** `session.ready` notifications that came before their session's answer. */
  readonly #earlyReady: Map<string, SessionReady>;
  readonly #exited: Promise<number | null>;
  readonly #stderr: () => string;

  private constructor(parts: {
    child: ChildProcessWithoutNullStreams;
    connection: MessageConnection;
    info: InitializeResult;
    exited: Promise<number | null>;
    stderr: () => string;
    sessions: Map<string, QuiverSession>;
    earlyReady: Map<string, SessionReady>;
  }) {
    this.#child = parts.child;
    this.#connection = parts.connection;
    this.info = parts.info;
    this.#exited = parts.exited;
    this.#stderr = parts.stderr;
    this.#sessions = parts.sessions;
    this.#earlyReady = parts.earlyReady;
  }

  /** The last lines Quiver wrote to stderr (warnings, the trust notice). */
  get stderrText(): string {
    return this.#stderr();
  }

  /** Starts `quiver rpc` and initializes it; fails with what Quiver printed when it cannot start. */
  static async start(options: QuiverClientOptions = {}): Promise<QuiverClient> {
    const child = spawn(
      options.command ?? 'quiver',
      [...(options.args ?? []), 'rpc', ...(options.rpcArgs ?? [])],
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: 'pipe',
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', () => resolve(null));
    });
    const spawnFailure = new Promise<never>((_, reject) =>
      child.once('error', (error) =>
        reject(new Error(`Could not start ${options.command ?? 'quiver'}: ${error.message}`)),
      ),
    );
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const sessions = new Map<string, QuiverSession>();
    const early = new Map<string, SessionReady>();
    wireHandlers(connection, options, sessions, early);
    connection.listen();
    void exited.then(() => connection.dispose());
    const initialized = connection
      .sendRequest<InitializeResult>('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        client: {
          name: options.clientName ?? '@quiver/client',
          ...(options.clientVersion ? { version: options.clientVersion } : {}),
        },
        capabilities: {
          permissions: options.onPermission !== undefined,
          elicitation: options.onElicitation !== undefined,
          sampling: options.onSampling !== undefined,
        },
      })
      .catch((error: unknown) => {
        throw asClientError(error, () => stderr);
      });
    const exitedEarly = exited.then((code) => {
      throw new Error(`quiver rpc exited (code ${code}) before answering initialize:\n${stderr.trim()}`);
    });
    try {
      const info = await Promise.race([initialized, spawnFailure, exitedEarly]);
      return new QuiverClient({
        child,
        connection,
        info,
        exited,
        stderr: () => stderr,
        sessions,
        earlyReady: early,
      });
    } catch (error) {
      if (child.exitCode === null) child.kill();
      connection.dispose();
      throw error;
    }
  }

  /** Opens a session; its external tools run in this process when the model calls them. */
  createSession(options: SessionOptions = {}): Promise<QuiverSession> {
    return this.#open('session.create', options);
  }

  /** Continues a session an earlier process logged; `interruptedCalls` lists what it left unfinished. */
  resumeSession(sessionId: string, options: Omit<SessionOptions, 'sessionId'> = {}): Promise<QuiverSession> {
    return this.#open('session.resume', { ...options, sessionId });
  }

  async #open(method: string, options: SessionOptions): Promise<QuiverSession> {
    const { externalTools = [], ...settings } = options;
    const opened = await this.request<SessionOpened>(method, {
      ...settings,
      ...(externalTools.length > 0 ? { externalTools: externalTools.map(wireDefinition) } : {}),
    });
    const session = new QuiverSession(this, opened, externalTools, this.#earlyReady.get(opened.sessionId));
    this.#earlyReady.delete(opened.sessionId);
    this.#sessions.set(opened.sessionId, session);
    return session;
  }

  /** The sessions of the durable log, most recent first. */
  async listSessions(limit?: number): Promise<SessionSummary[]> {
    const { sessions } = await this.request<{ sessions: SessionSummary[] }>(
      'session.list',
      limit === undefined ? {} : { limit },
    );
    return sessions;
  }

  /** One session's calls (and its durable events with `events: true`) from the log. */
  sessionLog(sessionId: string, options: { events?: boolean } = {}): Promise<SessionLog> {
    return this.request<SessionLog>('session.log', { sessionId, ...options });
  }

  /** Closes every session and ends the process; resolves with its exit code. */
  async shutdown(): Promise<number | null> {
    if (this.#child.exitCode === null) await this.request('shutdown', {}).catch(() => {});
    return this.#exited;
  }

  /** Ends the process without asking (its sessions' unfinished calls are interrupted). */
  kill(): void {
    if (this.#child.exitCode === null) this.#child.kill('SIGKILL');
  }

  /** Sends a request; a JSON-RPC error becomes a QuiverRpcError. */
  async request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    const cancellation = new CancellationTokenSource();
    const onAbort = () => cancellation.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.#connection.sendRequest<R>(method, params, cancellation.token);
    } catch (error) {
      throw asClientError(error, () => this.stderrText);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  }

  /** @internal */
  notify(method: string, params: unknown): void {
    void this.#connection.sendNotification(method, params).catch(() => {});
  }

  /** @internal */
  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }
}

function wireHandlers(
  connection: MessageConnection,
  options: QuiverClientOptions,
  sessions: Map<string, QuiverSession>,
  early: Map<string, SessionReady>,
): void {
  connection.onNotification('session.event', (params: { sessionId: string; event: QuiverEvent }) => {
    sessions.get(params.sessionId)?.receiveEvent(params.event);
  });
  connection.onNotification('session.ready', (params: SessionReady) => {
    const session = sessions.get(params.sessionId);
    if (session) session.receiveReady(params);
    else early.set(params.sessionId, params);
  });
  connection.onRequest(
    'external_tool.requested',
    async (
      params: { sessionId: string; callId: string; toolName: string; arguments: unknown },
      token,
    ): Promise<ExternalToolReply> => {
      const session = sessions.get(params.sessionId);
      if (!session) return { ok: false, error: `No session ${params.sessionId} in this client.` };
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort(new Error('cancelled by Quiver')));
      return session.runExternalTool(params.toolName, params.arguments, params.callId, controller.signal);
    },
  );
  if (options.onPermission) {
    const answer = options.onPermission;
    connection.onRequest(
      'permission.requested',
      async (params: PermissionRequest): Promise<unknown> => await answer(params),
    );
  }
  if (options.onElicitation) {
    const answer = options.onElicitation;
    connection.onRequest(
      'elicitation.requested',
      async (params: ElicitationRequest): Promise<unknown> => await answer(params),
    );
  }
  if (options.onSampling) {
    const answer = options.onSampling;
    connection.onRequest(
      'sampling.requested',
      async (params: SamplingRequest): Promise<unknown> => await answer(params),
    );
  }
}

function wireDefinition(tool: ExternalTool) {
  const { execute: _execute, ...definition } = tool;
  return definition;
}

function asClientError(error: unknown, stderr: () => string): Error {
  if (error instanceof ResponseError) return new QuiverRpcError(error.code, error.message, error.data);
  if (error instanceof Error && /disposed|closed/i.test(error.message)) {
    const tail = stderr().trim();
    return new Error(`quiver rpc ended: ${error.message}${tail ? `\n${tail}` : ''}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
