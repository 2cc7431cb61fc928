import type { ToolResult } from './result.js';

export interface ReducerInput {
  toolName: string;
  args: unknown;
}

/** Shrinks a tool's result for the model. Must never grow the value; keeps `structured`. */
export interface ToolResultReducer {
  /** Exact tool name this reducer applies to. */
  tool: string;
  reduce(result: ToolResult, input: ReducerInput): ToolResult;
}

export interface ToolResultReducerRegistry {
  /**
   * Throws `duplicate_reducer` on a second reducer for the same tool. Returns an unregister
   * function. `pluginId` names the plugin it belongs to: it applies only where that plugin is enabled.
   */
  register(reducer: ToolResultReducer, options?: { pluginId?: string }): () => void;
  get(toolName: string): ToolResultReducer | undefined;
  list(): ToolResultReducer[];
}
