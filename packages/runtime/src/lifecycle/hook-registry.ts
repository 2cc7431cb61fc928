import type { HookEventName, ToolHook } from '@quiver/types';
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
}

/** Absent matcher = every tool; otherwise any exact name or `*` glob that matches. */
export function hookMatches(matcher: string | string[] | undefined, toolName: string): boolean {
  if (matcher === undefined) return true;
  const patterns = Array.isArray(matcher) ? matcher : [matcher];
  return patterns.some((pattern) => globMatches(pattern, toolName));
}

function globMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(name);
}
