import {
  type Attachment,
  DEFAULT_RESULT_BUDGET,
  QuiverError,
  type RegisteredTool,
  type RegisterOptions,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolCall,
  type ToolDefinitionLite,
  type ToolFilterOpts,
  type ToolRegistry,
  type ToolResult,
  type ToolResultReducerRegistry,
} from '@quiver/types';
import { AbortLinks } from './abort-links.js';
import { Batch, internalFailure } from './batch.js';
import { type AttachmentLimits, DEFAULT_ATTACHMENT_LIMITS, splitBudget } from './budget.js';
import { executeCall } from './execute-call.js';
import type { ExecuteContext } from './execute-context.js';
import { availabilityOf, gateRefusal, isBuiltIn, passesToolsetGate } from './gates.js';
import { deriveJsonSchema } from './json-schema.js';

export interface DefaultToolRegistryOptions {
  /** Where `executeParallel` looks up each tool's reducer by exact name. */
  reducers?: ToolResultReducerRegistry;
  /** Attachments one `executeParallel` may return in all; default 10 and 10 MiB. */
  attachmentLimits?: Partial<AttachmentLimits>;
}

/** Tools by name, their JSON Schema derived once at registration, and the call pipeline. */
export class DefaultToolRegistry implements ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #listeners = new Set<() => void>();
  readonly #reducers: ToolResultReducerRegistry | undefined;
  readonly #abortLinks = new AbortLinks();
  readonly #attachmentLimits: Readonly<AttachmentLimits>;

  constructor(options: DefaultToolRegistryOptions = {}) {
    this.#reducers = options.reducers;
    this.#attachmentLimits = Object.freeze({ ...DEFAULT_ATTACHMENT_LIMITS, ...options.attachmentLimits });
  }

  register(tool: Tool, options: RegisterOptions = {}): () => void {
    return this.registerAll([tool], options);
  }

  /** All or nothing: when one tool is rejected, none of the batch is registered. */
  registerAll(tools: readonly Tool[], options: RegisterOptions = {}): () => void {
    const batch = new Map<string, RegisteredTool>();
    for (const tool of tools) {
      const registered = this.#prepare(tool, options.pluginId);
      const owner = this.#tools.get(tool.name) ?? batch.get(tool.name);
      if (owner !== undefined) throw duplicateToolError(tool.name, owner.pluginId, options.pluginId);
      batch.set(tool.name, registered);
    }
    for (const [name, registered] of batch) this.#tools.set(name, registered);
    if (batch.size > 0) this.#notify();
    return () => {
      let removed = false;
      for (const [name, registered] of batch) {
        if (this.#tools.get(name) === registered) {
          this.#tools.delete(name);
          removed = true;
        }
      }
      if (removed) this.#notify();
    };
  }

  unregister(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#notify();
    return removed;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /** In registration order. */
  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  /** Tools whose `isAvailable()` says yes now (a check that throws says no). */
  getAvailable(): RegisteredTool[] {
    return this.list().filter((registered) => availabilityOf(registered).available);
  }

  getForToolset(toolset: string): RegisteredTool[] {
    return this.list().filter((registered) => registered.tool.toolset === toolset);
  }

  /**
   * Listeners run after every change, in subscription order. A throwing listener does not stop
   * the others or undo the change; its error is rethrown to the caller of register/unregister.
   */
  onChange(listener: () => void): () => void {
    const subscription = () => listener();
    this.#listeners.add(subscription);
    return () => {
      this.#listeners.delete(subscription);
    };
  }

  /**
   * Runs every call concurrently; results come back in input order. Never throws: every
   * failure, including a bug in a tool or a reducer, is a result.
   */
  async executeParallel(
    calls: readonly ToolCall[],
    ctx: ExecuteContext,
    allowedTools?: readonly string[],
    filterOpts?: ToolFilterOpts,
    turnAttachments?: readonly Attachment[],
  ): Promise<ToolResult[]> {
    const count = Array.isArray(calls) ? calls.length : 0;
    if (count === 0) return [];
    const perCallBudget = splitBudget(ctx?.budget ?? DEFAULT_RESULT_BUDGET, count);
    try {
      const batch = new Batch({
        ctx,
        perCallBudget,
        allowedTools,
        filterOpts,
        turnAttachments,
        reducers: this.#reducers,
        links: this.#abortLinks,
        attachmentLimits: this.#attachmentLimits,
      });
      return await batch.run(calls, (call, abort) =>
        executeCall(
          call,
          typeof call?.name === 'string' ? this.#tools.get(call.name) : undefined,
          batch,
          abort,
        ),
      );
    } catch (error) {
      return Array.from(calls, (call) => internalFailure(call, error, perCallBudget));
    }
  }

  /** Model-visible definitions: availability, then the toolset gate for built-ins, then the filter gates. */
  toDefinitions(allowedTools?: readonly string[], filterOpts?: ToolFilterOpts): ToolDefinitionLite[] {
    const definitions: ToolDefinitionLite[] = [];
    for (const registered of this.#tools.values()) {
      if (!availabilityOf(registered).available) continue;
      if (isBuiltIn(registered) && !passesToolsetGate(registered, filterOpts?.toolsets)) continue;
      if (gateRefusal(registered, allowedTools, filterOpts) !== undefined) continue;
      definitions.push(toDefinition(registered));
    }
    return definitions;
  }

  #prepare(tool: Tool, pluginId: string | undefined): RegisteredTool {
    const owner = ownerOf(pluginId);
    if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
      throw new QuiverError(
        'config_invalid',
        `Tool name ${JSON.stringify(tool?.name)} from ${owner} is not valid`,
        {
          fix: 'Use 1–64 characters of letters, digits, "_" and "-".',
          details: { tool: tool?.name, pluginId },
        },
      );
    }
    if (typeof tool.execute !== 'function' || typeof tool.input?.safeParse !== 'function') {
      throw new QuiverError(
        'config_invalid',
        `Tool "${tool.name}" from ${owner} needs a zod \`input\` schema and an \`execute\` function`,
        {
          fix: 'Declare the tool with defineTool({ name, description, input: z.object({...}), capabilities: {}, execute }).',
          details: { tool: tool.name, pluginId },
        },
      );
    }
    const parameters = deepFreeze(
      tool.parametersJsonSchema === undefined
        ? deriveJsonSchema(tool.input, tool.name)
        : structuredClone(tool.parametersJsonSchema),
    );
    return pluginId === undefined ? { tool, parameters } : { tool, pluginId, parameters };
  }

  #notify(): void {
    const errors: unknown[] = [];
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        errors.push(error);
      }
    }
    // The change itself stands; the listener's bug surfaces to whoever made the change.
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1)
      throw new AggregateError(errors, `${errors.length} tool registry change listeners threw`);
  }
}

function toDefinition(registered: RegisteredTool): ToolDefinitionLite {
  const { tool } = registered;
  const definition: ToolDefinitionLite = {
    name: tool.name,
    description: tool.description,
    parameters: registered.parameters,
  };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  return definition;
}

function ownerOf(pluginId: string | undefined): string {
  return pluginId === undefined ? 'the host' : `plugin "${pluginId}"`;
}

function duplicateToolError(
  name: string,
  existing: string | undefined,
  incoming: string | undefined,
): QuiverError {
  return new QuiverError(
    'duplicate_tool',
    `Tool "${name}" is already registered by ${ownerOf(existing)}; ${ownerOf(incoming)} tried to register it again`,
    {
      fix: 'Rename one of the tools, or unregister the existing one before registering its replacement.',
      details: { tool: name, registeredBy: existing, attemptedBy: incoming },
    },
  );
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
