import type { PermissionKind } from './permissions.js';
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
 * A tool of a plugin this process left out without importing it (a host that runs one named tool
 * loads only the plugins that can provide it): what its plugin declares, so that a name or a rule
 * written for it is read as when the plugin is loaded.
 */
export interface UnloadedTool {
  name: string;
  aliases?: readonly string[];
  pluginId: string;
  /** Its `permission.kind`; undefined when it has no permission subject. */
  permissionKind?: PermissionKind;
  /** It asks for the `tools` capability (it runs other tools): a host running it loads every plugin. */
  callsOtherTools?: boolean;
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
  /** Tools of plugins left out of this process (see UnloadedTool); absent or empty when every plugin loaded. */
  unloaded?(): readonly UnloadedTool[];
  /** Called after any register/unregister. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export const DEFAULT_RESULT_BUDGET = 80_000;
