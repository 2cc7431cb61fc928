import { QuiverError, type ToolResultReducer, type ToolResultReducerRegistry } from '@quiver/types';

interface ReducerEntry {
  reducer: ToolResultReducer;
  pluginId: string | undefined;
}

/** Reducers by exact tool name; one per tool, each remembering the plugin that registered it. */
export class DefaultToolResultReducerRegistry implements ToolResultReducerRegistry {
  readonly #reducers = new Map<string, ReducerEntry>();

  register(reducer: ToolResultReducer, options: { pluginId?: string } = {}): () => void {
    const existing = this.#reducers.get(reducer.tool);
    if (existing !== undefined) {
      const owner = existing.pluginId === undefined ? 'the host' : `plugin "${existing.pluginId}"`;
      throw new QuiverError(
        'duplicate_reducer',
        `A reducer for tool "${reducer.tool}" is already registered by ${owner}`,
        {
          fix: 'Register one reducer per tool; unregister the existing one first to replace it.',
          details: { tool: reducer.tool, registeredBy: existing.pluginId, attemptedBy: options.pluginId },
        },
      );
    }
    const entry: ReducerEntry = { reducer, pluginId: options.pluginId };
    this.#reducers.set(reducer.tool, entry);
    return () => {
      if (this.#reducers.get(reducer.tool) === entry) this.#reducers.delete(reducer.tool);
    };
  }

  get(toolName: string): ToolResultReducer | undefined {
    return this.#reducers.get(toolName)?.reducer;
  }

  list(): ToolResultReducer[] {
    return [...this.#reducers.values()].map((entry) => entry.reducer);
  }

  /**
   * The reducers a personality applies: the host's own and those of the plugins it enables, so
   * that a loaded but disabled plugin cannot rewrite what another plugin's tool returns.
   */
  forPlugins(plugins: readonly string[]): ToolResultReducerRegistry {
    const enabled = new Set(plugins);
    const visible = (entry: ReducerEntry | undefined) =>
      entry !== undefined && (entry.pluginId === undefined || enabled.has(entry.pluginId));
    return {
      register: (reducer) => {
        throw new QuiverError(
          'usage',
          `Cannot register the reducer for "${reducer.tool}" through a personality's view of the reducers`,
          { fix: 'Register reducers on the registry itself (a plugin does so with ctx.registerReducer).' },
        );
      },
      get: (toolName) => {
        const entry = this.#reducers.get(toolName);
        return visible(entry) ? entry?.reducer : undefined;
      },
      list: () => [...this.#reducers.values()].filter(visible).map((entry) => entry.reducer),
    };
  }
}
