import { randomUUID } from 'node:crypto';
import { InMemorySessionState } from '@quiver/core';
import {
  type AgentIdentity,
  errorMessage,
  type PermissionRules,
  QuiverError,
  type QuiverEvent,
  type SessionState,
  type ToolCall,
  type ToolResult,
} from '@quiver/types';
import { currentTeammate } from '../agents/teammate-context.js';
import { toolsForChildren } from '../assembly/agent-context.js';
import { assembleToolPool } from '../assembly/assemble-tool-pool.js';
import { estimateTokens } from '../assembly/definitions.js';
import { explainTool } from '../assembly/explain-tool.js';
import { externalToolsSignature, mergeExternalTools } from '../assembly/external-tools.js';
import { toolNameCatalog } from '../assembly/named-settings.js';
import { expandRuleToolNames } from '../assembly/rule-tool-names.js';
import type {
  ExecuteCallsOptions,
  ExternalToolDefinition,
  PoolDiagnostic,
  ProviderFormat,
  SessionAgentKind,
  SessionDeps,
  SessionLike,
  SessionOptions,
  ToolPool,
} from '../contracts.js';
import { InMemoryEventBus } from '../events/bus.js';
import { createEventFactory } from '../events/event-factory.js';
import { type CallExecutor, type CallExecutorOptions, createCallExecutor } from '../lifecycle/executor.js';
import { checkSessionPermissionRules } from '../lifecycle/permission-engine.js';
import type { CallCheck } from '../lifecycle/permission-preview.js';
import {
  type RenderedDefinitions,
  type RenderOptions,
  renderToolPool,
} from '../providers/render-definitions.js';
import { serversOfToolNames, serversToAwait } from './mcp-demand.js';
import { checkPermissionResolver } from './resolver-shape.js';
import type { SessionServices } from './session-services.js';

/**
 * One conversation's view of the tools: its pool (assembled lazily, cached until the registry,
 * the options, the external tools or tool_search expansions change), its state, its events and
 * its call executor. Child sessions are bounded by their parent's denies and pool.
 */
export class Session implements SessionLike {
  readonly id: string;
  readonly state: SessionState & { dispose(): Promise<void> };
  readonly events = new InMemoryEventBus();
  readonly agent: AgentIdentity;
  readonly #deps: SessionDeps;
  readonly #createExecutor: (options: CallExecutorOptions) => CallExecutor;
  readonly #parent: Session | undefined;
  readonly #parentDenies: string[];
  readonly #children = new Set<Session>();
  readonly #unsubscribes: (() => void)[] = [];
  readonly #expanded = new Set<string>();
  readonly #reported = new Set<string>();
  readonly #event: ReturnType<typeof createEventFactory>;
  #options: SessionOptions;
  #externalTools: ExternalToolDefinition[];
  #externalSignature: string;
  #externalVersion = 0;
  #pool: ToolPool | undefined;
  #stale = true;
  #executor: CallExecutor | undefined;
  #lastToolsUpdated: QuiverEvent | undefined;
  #closed = false;
  #serversStarted = false;

  constructor(
    deps: SessionDeps,
    options: SessionOptions = {},
    parent?: Session,
    services: SessionServices = {},
  ) {
    this.#deps = deps;
    this.state = services.state ?? new InMemorySessionState();
    this.#createExecutor = services.createExecutor ?? createCallExecutor;
    this.#parent = parent;
    checkSessionPermissionRules(options.permissions, deps.registry);
    checkPermissionResolver(options.permissionResolver);
    this.#options = { ...options };
    this.id = options.sessionId ?? randomUUID();
    this.#event = createEventFactory(this.id);
    const teammate = currentTeammate();
    const kind: SessionAgentKind = options.agent ?? (teammate ? 'teammate' : parent ? 'subagent' : 'main');
    const name = options.customAgent ?? (kind === 'teammate' ? teammate?.name : undefined);
    this.agent = name === undefined ? { kind, id: this.id } : { kind, name, id: this.id };
    this.#parentDenies = parent ? [...parent.#parentDenies, ...(parent.#permissions().deny ?? [])] : [];
    this.#externalTools = [...(options.externalTools ?? [])];
    this.#externalSignature = externalToolsSignature(this.#externalTools);
    this.#unsubscribes.push(deps.registry.onChange(() => this.#invalidate()));
    const hostBus = deps.events;
    if (hostBus) this.#unsubscribes.push(this.events.forwardTo(hostBus));
  }

  get options(): Readonly<SessionOptions> {
    return this.#options;
  }

  /** Deny rules inherited from parent sessions. */
  get parentDenies(): readonly string[] {
    return this.#parentDenies;
  }

  /** The tools for the next model call. Throws QuiverError('assembly_failed') when the configuration cannot be assembled. */
  pool(): ToolPool {
    this.#assertOpen();
    // Listing the tools is what needs the personality's MCP servers: start them, without waiting.
    if (!this.#serversStarted) {
      this.#serversStarted = true;
      void this.#deps.demand?.();
    }
    return this.#assemble();
  }

  #assemble(): ToolPool {
    if (this.#pool && !this.#stale) return this.#pool;
    const parentPool = this.#parent ? this.#parent.#assemble() : undefined;
    const next = assembleToolPool({
      registered: this.#deps.registry.list(),
      unloaded: this.#deps.registry.unloaded?.(),
      policy: this.#deps.policy,
      options: { ...this.#options, externalTools: this.#externalTools },
      agent: this.agent.kind,
      parentDenies: this.#parentDenies,
      parentTools: parentPool ? toolsForChildren(parentPool) : undefined,
      ownExternalTools: this.#parent ? this.#ownExternalTools() : undefined,
      profiles: this.#deps.profiles,
      expandedTools: this.#expanded,
      externalVersion: this.#externalVersion,
      onToolsFound: (names) => this.#expand(names),
    });
    const previous = this.#pool;
    this.#pool = next;
    this.#stale = false;
    this.#report(next.diagnostics);
    if (previous?.signature !== next.signature) this.#publishToolsUpdated(previous, next);
    return next;
  }

  /**
   * The pool to use for a request already under way: rebuilt when the external definitions (or
   * anything else) changed since `current` was built. A failed rebuild keeps `current` and emits
   * a `session.warning`, so a broken update never takes tools away mid-request.
   */
  refreshIfStale(current: ToolPool | undefined = this.#pool): ToolPool {
    if (
      current &&
      !this.#stale &&
      current.externalVersion === this.#externalVersion &&
      current === this.#pool
    )
      return current;
    try {
      return this.#assemble();
    } catch (error) {
      const fallback = current ?? this.#pool;
      if (!fallback) throw error;
      this.events.publish(
        this.#event('session.warning', {
          code: 'tools_refresh_failed',
          message: `The tools could not be refreshed; the previous tools stay in use. ${errorMessage(error)}`,
        }),
      );
      return fallback;
    }
  }

  /** Merges option changes; the next pool() reassembles. */
  updateOptions(patch: Partial<SessionOptions>): void {
    this.#assertOpen();
    const current = { agent: this.agent.kind, sessionId: this.id };
    for (const fixed of ['agent', 'sessionId'] as const) {
      if (patch[fixed] !== undefined && patch[fixed] !== current[fixed]) {
        throw new QuiverError('usage', `A session's ${fixed} cannot change after it is created.`, {
          fix:
            fixed === 'agent'
              ? 'Create a child session with createChild({ agent }) instead.'
              : 'Create a new session with that sessionId instead.',
        });
      }
    }
    const { externalTools, ...rest } = patch;
    if ('permissions' in rest) checkSessionPermissionRules(rest.permissions, this.#deps.registry);
    if ('permissionResolver' in rest) checkPermissionResolver(rest.permissionResolver);
    if ('permissions' in rest || 'permissionResolver' in rest) this.#resetExecutor();
    this.#options = { ...this.#options, ...rest };
    if (externalTools !== undefined) this.updateExternalTools(externalTools);
    this.#invalidate();
  }

  /** Replaces the SDK client's tools; the version moves only when what the model sees changed. */
  updateExternalTools(definitions: readonly ExternalToolDefinition[]): void {
    this.#assertOpen();
    const signature = externalToolsSignature(definitions);
    this.#externalTools = [...definitions];
    if (signature !== this.#externalSignature) {
      this.#externalSignature = signature;
      this.#externalVersion += 1;
    }
    this.#invalidate();
  }

  /** Names of the external tools this child session was given itself rather than inherited. */
  #ownExternalTools(): Set<string> {
    const parent = this.#parent;
    const inherited = new Set(parent ? parent.#externalTools : []);
    return new Set(this.#externalTools.filter((tool) => !inherited.has(tool)).map((tool) => tool.name));
  }

  /** Calls an earlier process of this session started and never completed (known once it has executed). */
  get interruptedCalls(): readonly string[] {
    return this.#executor?.interruptedCalls ?? [];
  }

  get externalVersion(): number {
    return this.#externalVersion;
  }

  /** Forces the next pool() to reassemble (e.g. after a tool's availability changed). */
  invalidate(): void {
    this.#invalidate();
  }

  /**
   * Waits until the MCP servers of this session's personality (or only those of the named tools)
   * have connected or failed to; the next pool() offers the tools of those that connected.
   */
  async ready(options: { tools?: readonly string[] } = {}): Promise<void> {
    this.#assertOpen();
    const { policy, demand } = this.#deps;
    if (demand === undefined) return;
    if (options.tools === undefined) return demand();
    const servers = serversOfToolNames(options.tools, policy);
    if (servers.length > 0) await demand(servers);
  }

  execute(calls: readonly ToolCall[], options?: ExecuteCallsOptions): Promise<ToolResult[]> {
    this.#assertOpen();
    const demand = this.#deps.demand;
    const starting = demand ? serversToAwait(calls, this.refreshIfStale(), this.#deps.policy) : [];
    if (demand && starting.length > 0) return demand(starting).then(() => this.#run(calls, options));
    return this.#run(calls, options);
  }

  /**
   * Whether each call would run, ask or be denied at the permission step, without asking the
   * resolver, running hooks or tools, or publishing events. An embedder whose framework has its
   * own approval step asks there for `ask`, then passes the answer as `execute`'s `approvals`.
   */
  check(calls: readonly ToolCall[]): Promise<CallCheck[]> {
    this.#assertOpen();
    return this.#callExecutor().check(calls, this.refreshIfStale());
  }

  /**
   * Opens now what the session's first call would otherwise open on its way (the permission
   * engine with its saved grants, the session's log writer), so that call does not wait for it.
   * Optional: a call prepares the session itself. A gateway calls this while it waits anyway.
   */
  prepareCalls(): void {
    this.#assertOpen();
    this.#callExecutor();
  }

  /**
   * Runs the call pipeline once on an internal stand-in tool, so that the session's first real
   * call does not wait for V8 to compile it: no event is published or logged, no hook, permission
   * prompt or trace span, and the stand-in is in no tool list. With a pool already assembled, its
   * tools' argument schemas parse once too; nothing is assembled or started for it. Opens what
   * `prepareCalls` opens. Optional, for a gateway with time to spare (waiting for its MCP servers,
   * or between a client's listing and its first call); may run again; never rejects.
   */
  async warmCalls(): Promise<void> {
    if (this.#closed) return;
    try {
      const pool = this.#pool !== undefined && !this.#stale ? this.#pool : undefined;
      await this.#callExecutor().warmUp?.(pool);
    } catch {
      // The first call opens the same and reports its own error.
    }
  }

  #run(calls: readonly ToolCall[], options?: ExecuteCallsOptions): Promise<ToolResult[]> {
    this.#assertOpen();
    const pool = this.refreshIfStale();
    const model = options?.model ?? this.#options.model;
    return this.#callExecutor().execute(calls, pool, model === undefined ? options : { ...options, model });
  }

  #callExecutor(): CallExecutor {
    if (this.#executor === undefined) {
      this.#executor = this.#openExecutor();
      // The definitions' first announcement came before there was a log writer.
      if (this.#lastToolsUpdated !== undefined) this.#executor.record?.(this.#lastToolsUpdated);
    }
    return this.#executor;
  }

  #openExecutor(): CallExecutor {
    return this.#createExecutor({
      sessionId: this.id,
      deps: this.#deps,
      state: this.state,
      events: this.events,
      agent: this.agent,
      permissions: this.#permissions(),
      parentDenies: this.#parentDenies,
      resolver: this.#options.permissionResolver,
      log: this.#deps.eventLog,
      awaitTools: (names) => this.#awaitTools(names),
      ...(this.#options.caller === undefined ? {} : { caller: this.#options.caller }),
    });
  }

  /** The session's readiness for these tools (their MCP servers started), then its pool. */
  async #awaitTools(names?: readonly string[]): Promise<ToolPool | undefined> {
    const { policy, demand } = this.#deps;
    if (demand === undefined || this.#closed) return undefined;
    if (names === undefined) await demand();
    else {
      const servers = serversOfToolNames(names, policy);
      if (servers.length === 0) return undefined;
      await demand(servers);
    }
    return this.#closed ? undefined : this.refreshIfStale();
  }

  /** A sub-agent session: its tools are a subset of this session's, bounded by this session's denies. */
  createChild(options: SessionOptions = {}): Session {
    this.#assertOpen();
    const { externalTools, ...rest } = options;
    const child = new Session(
      this.#deps,
      {
        model: this.#options.model,
        permissionResolver: this.#options.permissionResolver,
        ...rest,
        // A sub-agent runs for whoever called its parent.
        ...(this.#options.caller === undefined ? {} : { caller: this.#options.caller }),
        // The child's own tools join the parent's; a name both define is the child's.
        externalTools: mergeExternalTools(this.#externalTools, externalTools ?? []),
      },
      this,
    );
    this.#children.add(child);
    return child;
  }

  explain(name: string): string {
    return explainTool(this.pool(), name);
  }

  render<F extends ProviderFormat>(format?: F, options?: RenderOptions): RenderedDefinitions<F> {
    return renderToolPool(this.pool(), format, options);
  }

  /** Closes children, stops listening, disposes the executor and the session state. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const failures: unknown[] = [];
    for (const child of this.#children) await child.close().catch((error: unknown) => failures.push(error));
    this.#children.clear();
    if (this.#parent) this.#parent.#children.delete(this);
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
    await this.#executor?.dispose().catch((error: unknown) => failures.push(error));
    this.#executor = undefined;
    await this.state.dispose().catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw new AggregateError(failures, `Closing session ${this.id} failed`);
  }

  #permissions(): PermissionRules {
    const own = this.#deps.policy.permissions;
    const extra = this.#options.permissions ?? {};
    const rules = {
      allow: [...(own.allow ?? []), ...(extra.allow ?? [])],
      ask: [...(own.ask ?? []), ...(extra.ask ?? [])],
      deny: [...(own.deny ?? []), ...(extra.deny ?? [])],
    };
    const { registry, policy } = this.#deps;
    const catalog = toolNameCatalog(registry.list(), this.#externalTools, policy, registry.unloaded?.());
    return expandRuleToolNames(rules, catalog.tools);
  }

  #invalidate(): void {
    this.#stale = true;
    for (const child of this.#children) child.#invalidate();
  }

  #expand(names: readonly string[]): void {
    const before = this.#expanded.size;
    for (const name of names) this.#expanded.add(name);
    if (this.#expanded.size !== before) this.#invalidate();
  }

  #resetExecutor(): void {
    const executor = this.#executor;
    this.#executor = undefined;
    void executor?.dispose().catch(() => {});
  }

  /** Also on the first assembly, with every tool as added, so a client learns the initial list. */
  #publishToolsUpdated(previous: ToolPool | undefined, next: ToolPool): void {
    const before = new Set(previous?.definitions.map((definition) => definition.name));
    const after = new Set(next.definitions.map((definition) => definition.name));
    const event = this.#event('session.tools_updated', {
      signature: next.signature,
      added: [...after].filter((name) => !before.has(name)),
      removed: [...before].filter((name) => !after.has(name)),
      count: next.definitions.length,
      definitionTokens: estimateTokens(next.definitions),
    });
    this.#lastToolsUpdated = event;
    this.events.publish(event);
    // Logged too: the log's session summary names the definitions' size.
    this.#executor?.record?.(event);
  }

  /** Each distinct diagnostic becomes one event, not one per reassembly. */
  #report(diagnostics: readonly PoolDiagnostic[]): void {
    for (const diagnostic of diagnostics) {
      const key = `${diagnostic.level}:${diagnostic.code}:${diagnostic.message}`;
      if (this.#reported.has(key)) continue;
      this.#reported.add(key);
      const type = diagnostic.level === 'info' ? 'session.info' : 'session.warning';
      this.events.publish(this.#event(type, { code: diagnostic.code, message: diagnostic.message }));
    }
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new QuiverError('usage', `Session ${this.id} is closed.`, {
        fix: 'Create a new session with createSession() instead of reusing a closed one.',
      });
    }
  }
}

/** Creates a session for the personality in `deps.policy`. */
export function createSession(
  deps: SessionDeps,
  options: SessionOptions = {},
  services: SessionServices = {},
): Session {
  return new Session(deps, options, undefined, services);
}
