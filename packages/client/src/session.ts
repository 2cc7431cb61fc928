import type {
  ApprovalScope,
  CallCheck,
  ExternalToolDefinitionWire,
  ExternalToolReply,
  McpToolDefinition,
  ProviderFormat,
  QuiverEvent,
  RenderResult,
  SessionOpened,
  SessionReady,
  SessionSettings,
  ToolCallRequest,
  ToolResult,
} from './protocol-types.js';

/** What a running external tool can tell Quiver before it returns. */
export interface ExternalToolProgress {
  progress?: number;
  total?: number;
  message?: string;
  /** Output so far, shown as a partial result. */
  partial?: string;
}

export interface ExternalToolContext {
  callId: string;
  /** Aborts when Quiver aborts the call (the model turn was aborted, or it timed out). */
  signal: AbortSignal;
  progress(report: ExternalToolProgress): void;
}

/**
 * A tool this process runs: Quiver gates, validates, permission-checks and logs each call, then
 * asks this client to run it. Return text, a result, or throw (the call fails with the message).
 */
export interface ExternalTool extends ExternalToolDefinitionWire {
  execute(
    args: unknown,
    context: ExternalToolContext,
  ): string | ExternalToolReply | Promise<string | ExternalToolReply>;
}

export interface SessionOptions extends SessionSettings {
  /** Choose the id (to resume it later); default a random one. */
  sessionId?: string;
  externalTools?: ExternalTool[];
}

export interface ExecuteOptions {
  /** The model turn (what `abort(turn)` names); default the next one. */
  turn?: number;
  /** Aborting cancels the request: every unfinished call completes `aborted`. */
  signal?: AbortSignal;
  dryRun?: boolean;
  /**
   * Call id → scope for calls `check` said would ask and a person approved in the client's own
   * approval step (a framework's): their ask is answered with this scope. A deny rule still denies.
   */
  approvals?: Readonly<Record<string, ApprovalScope>>;
}

/**
 * What an adapter needs of a session: the definitions to show a model and one entry that runs
 * the model's calls through Quiver's pipeline. A `QuiverSession` of this package and an
 * in-process `Session` of `@quiver/runtime` (from `createQuiver().createSession()`) both satisfy it.
 */
export interface ToolSession {
  render(format: 'mcp'): { tools: McpToolDefinition[] } | Promise<{ tools: McpToolDefinition[] }>;
  execute(
    calls: readonly ToolCallRequest[],
    options?: { signal?: AbortSignal; approvals?: Readonly<Record<string, ApprovalScope>> },
  ): Promise<ToolResult[]>;
  /**
   * Whether each call would run, ask or be denied, asking nobody and running nothing. With it,
   * adapters relay Quiver's asks to the framework's approval step; without it, asks go to the
   * session's own resolver.
   */
  check?(calls: readonly ToolCallRequest[]): Promise<readonly CallCheck[]>;
  /** The session's events (a `QuiverSession`): adapters re-render on `session.tools_updated`. */
  onEvent?(listener: (event: QuiverEvent) => void): () => void;
  /** The session's event bus (an in-process session): the same, for `watchSessionTools`. */
  events?: { subscribe(listener: (event: QuiverEvent) => void): () => void };
}

/** The part of QuiverClient a session talks through. */
interface SessionChannel {
  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R>;
  notify(method: string, params: unknown): void;
  forget(sessionId: string): void;
}

type EventListener = (event: QuiverEvent) => void;

/** One session of a `quiver rpc` process. */
export class QuiverSession implements ToolSession {
  readonly id: string;
  readonly personality: string;
  /** Calls an earlier process of this session started and never completed. */
  readonly interruptedCalls: readonly string[];
  readonly #channel: SessionChannel;
  readonly #tools = new Map<string, ExternalTool>();
  readonly #listeners = new Set<EventListener>();
  readonly #ready: Promise<SessionReady>;
  #resolveReady: (ready: SessionReady) => void = () => {};

  /** @internal Made by QuiverClient.createSession / resumeSession. */
  constructor(
    channel: SessionChannel,
    opened: SessionOpened,
    tools: readonly ExternalTool[],
    ready: SessionReady | undefined,
  ) {
    this.#channel = channel;
    this.id = opened.sessionId;
    this.personality = opened.personality;
    this.interruptedCalls = opened.interruptedCalls;
    for (const tool of tools) this.#tools.set(tool.name, tool);
    this.#ready = new Promise((resolve) => {
      this.#resolveReady = resolve;
    });
    if (ready) this.#resolveReady(ready);
  }

  /** Resolves once the tools are assembled, MCP servers included: render after it. */
  ready(): Promise<SessionReady> {
    return this.#ready;
  }

  /** Every lifecycle event of this session; returns a function that stops listening. */
  onEvent(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Events of one type, typed. */
  on<T extends QuiverEvent['type']>(type: T, listener: (event: Extract<QuiverEvent, { type: T }>) => void) {
    return this.onEvent((event) => {
      if (event.type === type) listener(event as Extract<QuiverEvent, { type: T }>);
    });
  }

  /** The definitions the model sees, in a provider's format. */
  render(
    format: 'mcp',
    options?: { includeDeferred?: boolean },
  ): Promise<RenderResult & { tools: McpToolDefinition[] }>;
  render(format?: ProviderFormat, options?: { includeDeferred?: boolean }): Promise<RenderResult>;
  render(
    format: ProviderFormat = 'anthropic',
    options: { includeDeferred?: boolean } = {},
  ): Promise<RenderResult> {
    return this.#channel.request('session.render', { sessionId: this.id, format, ...options });
  }

  /** Runs the model's calls through the pipeline; results in input order, failures as results. */
  async execute(calls: readonly ToolCallRequest[], options: ExecuteOptions = {}): Promise<ToolResult[]> {
    const { signal, ...rest } = options;
    const { results } = await this.#channel.request<{ results: ToolResult[] }>(
      'session.execute',
      { sessionId: this.id, calls, ...rest },
      signal,
    );
    return results;
  }

  /**
   * Whether each call would run, ask or be denied at the permission step, with the question to
   * show for an ask, asking nobody and running nothing (no hooks, no events). Approve an ask in
   * your own UI, then pass `approvals: { [callId]: 'once' }` to `execute`.
   */
  async check(calls: readonly ToolCallRequest[]): Promise<CallCheck[]> {
    const { checks } = await this.#channel.request<{ checks: CallCheck[] }>('session.check', {
      sessionId: this.id,
      calls,
    });
    return checks;
  }

  /** Aborts the executions of a turn (every turn when omitted); returns how many were under way. */
  async abort(options: { turn?: number; reason?: string } = {}): Promise<number> {
    const { aborted } = await this.#channel.request<{ aborted: number }>('session.abort', {
      sessionId: this.id,
      ...options,
    });
    return aborted;
  }

  /** Changes options or replaces the external tools; the next render reassembles. */
  async update(
    options: Omit<SessionOptions, 'sessionId' | 'personality' | 'agent' | 'customAgent'>,
  ): Promise<void> {
    const { externalTools, ...settings } = options;
    if (externalTools) {
      this.#tools.clear();
      for (const tool of externalTools) this.#tools.set(tool.name, tool);
    }
    await this.#channel.request('session.update', {
      sessionId: this.id,
      ...settings,
      ...(externalTools
        ? { externalTools: externalTools.map(({ execute: _run, ...definition }) => definition) }
        : {}),
    });
  }

  /** Why a tool is or is not in the pool. */
  async explain(tool: string): Promise<string> {
    const { text } = await this.#channel.request<{ text: string }>('session.explain', {
      sessionId: this.id,
      tool,
    });
    return text;
  }

  async close(): Promise<void> {
    await this.#channel.request('session.close', { sessionId: this.id });
    this.#channel.forget(this.id);
  }

  /** @internal */
  receiveEvent(event: QuiverEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  /** @internal */
  receiveReady(ready: SessionReady): void {
    this.#resolveReady(ready);
  }

  /** @internal Runs one of this session's external tools for Quiver. */
  async runExternalTool(
    name: string,
    args: unknown,
    callId: string,
    signal: AbortSignal,
  ): Promise<ExternalToolReply> {
    const tool = this.#tools.get(name);
    if (!tool) return { ok: false, error: `This client has no tool ${name}.`, code: 'not_available' };
    const progress = (report: ExternalToolProgress) =>
      this.#channel.notify('external_tool.progress', { sessionId: this.id, callId, ...report });
    try {
      const result = await tool.execute(args, { callId, signal, progress });
      return typeof result === 'string' ? { ok: true, value: result } : result;
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
