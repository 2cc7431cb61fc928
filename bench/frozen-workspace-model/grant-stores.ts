import { parsePermissionRule } from './rule.js';

/** Rules granted for the lifetime of one session; kept in memory. */
export class SessionGrantStore {
  readonly #rules = new Set<string>();

  add(rule: string): void {
    this.#rules.add(parsePermissionRule(rule).source);
  }

  remove(rule: string): boolean {
    return this.#rules.delete(rule.trim());
  }

  list(): string[] {
    return [...this.#rules];
  }
}
