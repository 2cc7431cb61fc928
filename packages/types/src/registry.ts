import type { Tool, ToolDefinitionLite, ToolFilterOpts } from './tool.js';

export interface ToolCall {
  /** Call id from the model; generated when absent. */
  id?: string;
  name: string;
  args: unknown;
}

export interface RegisterOptions {
  pluginId?: string;
}

export interface RegisteredTool {
  tool: Tool;
  pluginId?: string;
  /** JSON Schema derived once at registration. */
  parameters: Record<string, unknown>;
}

/**
 * The host's catalog of tools: what plugin hosts and embedders register into and list. Running
 * calls is the runtime's session pipeline (or `DefaultToolRegistry.executeParallel` in core).
 */
export interface ToolRegistry {
  register(tool: Tool, options?: RegisterOptions): () => void;
  registerAll(tools: readonly Tool[], options?: RegisterOptions): () => void;
  unregister(name: string): boolean;
  get(name: string): RegisteredTool | undefined;
  list(): RegisteredTool[];
  getAvailable(): RegisteredTool[];
  getForToolset(toolset: string): RegisteredTool[];
  toDefinitions(allowedTools?: readonly string[], filterOpts?: ToolFilterOpts): ToolDefinitionLite[];
  /** Called after any register/unregister. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export const DEFAULT_RESULT_BUDGET = 80_000;
