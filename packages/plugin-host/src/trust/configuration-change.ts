import { isDeepStrictEqual } from 'node:util';
import { printable } from './printable.js';

/** One difference between a trusted configuration and the current one. */
export interface ConfigurationChange {
  /** widening needs a person's `quiver trust`; narrowing applies at once. */
  kind: 'widening' | 'narrowing';
  /** Where it is, e.g. `mcpServers.github` or `personality dev: permissions.allow`. */
  where: string;
  description: string;
}

/** Collects changes and says which value applies: the current one, or the trusted one when widening. */
export class ChangeLog {
  readonly changes: ConfigurationChange[] = [];

  constructor(private readonly prefix = '') {}

  scoped(prefix: string): ChangeLog {
    const child = new ChangeLog(`${this.prefix}${prefix}`);
    // Children share the parent's list so that the order follows the configuration.
    (child as { changes: ConfigurationChange[] }).changes = this.changes;
    return child;
  }

  add(kind: ConfigurationChange['kind'], where: string, description: string): void {
    this.changes.push({
      kind,
      where: printable(`${this.prefix}${where}`),
      description: printable(description),
    });
  }

  /**
   * A list where an added entry is `added` (and a removed one the opposite). The result keeps
   * the current order and only the entries that may apply now.
   */
  list(
    where: string,
    trusted: readonly string[],
    current: readonly string[],
    added: ConfigurationChange['kind'],
  ): string[] {
    const removed: ConfigurationChange['kind'] = added === 'widening' ? 'narrowing' : 'widening';
    const newEntries = current.filter((entry) => !trusted.includes(entry));
    const goneEntries = trusted.filter((entry) => !current.includes(entry));
    for (const entry of newEntries) this.add(added, where, `adds ${JSON.stringify(entry)}`);
    for (const entry of goneEntries) this.add(removed, where, `removes ${JSON.stringify(entry)}`);
    // Widening entries stay out (new ones) or stay in (removed ones).
    const kept = added === 'widening' ? current.filter((entry) => trusted.includes(entry)) : [...current];
    if (removed === 'widening') kept.push(...goneEntries);
    return kept;
  }

  /** A value that is either unchanged, or changed in a way the caller classified. */
  value<T>(
    where: string,
    trusted: T,
    current: T,
    kind: ConfigurationChange['kind'],
    description?: string,
  ): T {
    if (isDeepStrictEqual(trusted, current)) return current;
    this.add(kind, where, description ?? `changes from ${brief(trusted)} to ${brief(current)}`);
    return kind === 'widening' ? structuredClone(trusted) : current;
  }
}

export function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
