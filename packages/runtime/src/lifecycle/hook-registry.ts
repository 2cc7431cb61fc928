import { type HookEventName, matchesNamePattern, type ToolHook } from '@quiver/types';
import type { HookRegistry } from '../contracts.js';

interface HookEntry {
  hook: ToolHook;
  owner: string | undefined;
}

/**
 * Hooks in registration order. Owners let a plugin's hooks leave together when it unloads.
 * Each registration is its own entry: two plugins may share one hook implementation.
 */
export class DefaultHookRegistry implements HookRegistry {
  readonly #entries: HookEntry[] = [];

  register(hook: ToolHook, owner?: string): () => void {
    const entry: HookEntry = { hook, owner };
    this.#entries.push(entry);
    return () => {
      const index = this.#entries.indexOf(entry);
      if (index >= 0) this.#entries.splice(index, 1);
    };
  }

  list(event: HookEventName, toolName: string): ToolHook[] {
    return this.#entries
      .filter((entry) => entry.hook.event === event && hookMatches(entry.hook.matcher, toolName))
      .map((entry) => entry.hook);
  }

  removeOwner(owner: string): void {
    for (let index = this.#entries.length - 1; index >= 0; index--) {
      if (this.#entries[index]?.owner === owner) this.#entries.splice(index, 1);
    }
  }

  /**
   * The hooks a personality runs: the host's own (no owner) and those of the plugins it enables.
   * A plugin that is loaded but not enabled must not approve, deny or rewrite anything.
   */
  forPlugins(plugins: readonly string[]): HookRegistry {
    const enabled = new Set(plugins);
    return {
      register: (hook, owner) => this.register(hook, owner),
      removeOwner: (owner) => this.removeOwner(owner),
      list: (event, toolName) =>
        this.#entries
          .filter(
            (entry) =>
              (entry.owner === undefined || enabled.has(entry.owner)) &&
              entry.hook.event === event &&
              hookMatches(entry.hook.matcher, toolName),
          )
          .map((entry) => entry.hook),
    };
  }
}

/** Absent matcher = every tool; otherwise any exact name or `*` glob that matches. */
export function hookMatches(matcher: string | string[] | undefined, toolName: string): boolean {
  if (matcher === undefined) return true;
  const patterns = Array.isArray(matcher) ? matcher : [matcher];
  return patterns.some((pattern) => matchesNamePattern(pattern, toolName));
}
