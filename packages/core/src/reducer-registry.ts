import { QuiverError, type ToolResultReducer, type ToolResultReducerRegistry } from '@quiver/types';

/** Reducers by exact tool name; one per tool. */
export class DefaultToolResultReducerRegistry implements ToolResultReducerRegistry {
  readonly #reducers = new Map<string, ToolResultReducer>();

  register(reducer: ToolResultReducer): () => void {
    if (this.#reducers.has(reducer.tool)) {
      throw new QuiverError(
        'duplicate_reducer',
        `A reducer for tool "${reducer.tool}" is already registered`,
        {
          fix: 'Register one reducer per tool; unregister the existing one first to replace it.',
          details: { tool: reducer.tool },
        },
      );
    }
    this.#reducers.set(reducer.tool, reducer);
    return () => {
      if (this.#reducers.get(reducer.tool) === reducer) this.#reducers.delete(reducer.tool);
    };
  }

  get(toolName: string): ToolResultReducer | undefined {
    return this.#reducers.get(toolName);
  }

  list(): ToolResultReducer[] {
    return [...this.#reducers.values()];
  }
}
