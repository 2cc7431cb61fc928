import { QuiverError } from '@quiver/types';
import { type KeyLocation, keyLocationText } from './yaml-locations.js';

/**
 * The one merge rule for layered configuration (a personality over the personality it extends;
 * settings layers over each other):
 *
 * - a later layer wins key by key; maps merge key by key, recursively;
 * - a list the later layer writes as a plain list REPLACES the inherited one, and every inherited
 *   item it leaves out is reported as dropped;
 * - a list written as `{ add: [...], remove: [...] }` EDITS the inherited one: the additions
 *   after the inherited items, the removals reported as dropped;
 * - a UNION list (deny and ask rules, exclusions) keeps every inherited item whatever a later
 *   layer writes: a plain list or `{ add }` only adds, and `remove` is a configuration error.
 */
export interface MergeLayer {
  /** Where the layer came from (a file path, `embedded:NAME`), for reports. */
  source: string;
  data: Record<string, unknown>;
  /** Where a key path is written in the layer's file (line and column), when known. */
  locate?: (keyPath: readonly string[]) => KeyLocation | undefined;
}

export interface ListKeys {
  /** Key paths of lists; `*` stands for any key of a map (`agents.*.tools`). */
  replace: readonly string[];
  /** Key paths of lists that keep every inherited item. */
  union: readonly string[];
}

/** An inherited list item a later layer left out (`replaced`) or took out (`removed`). */
export interface DroppedListItem {
  keyPath: string;
  item: string;
  /** The layer that had listed it. */
  inheritedFrom: string;
  /** The layer that dropped it, and the line and column of the list there when known. */
  droppedBy: string;
  line?: number;
  column?: number;
  how: 'replaced' | 'removed';
}

/** A `remove` entry that named nothing inherited. */
export interface UnmatchedRemoval {
  keyPath: string;
  item: string;
  source: string;
  line?: number;
  column?: number;
}

export interface MergedLayers {
  data: Record<string, unknown>;
  dropped: DroppedListItem[];
  unmatchedRemovals: UnmatchedRemoval[];
}

/** Plugin entries `{ id, config }` are one item per id; anything else is itself. */
function itemKey(item: unknown): string {
  if (typeof item === 'string') return item;
  if (isPlainObject(item) && typeof item.id === 'string') return item.id;
  return JSON.stringify(item);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function matches(pattern: string, keyPath: readonly string[]): boolean {
  const parts = pattern.split('.');
  return (
    parts.length === keyPath.length && parts.every((part, index) => part === '*' || part === keyPath[index])
  );
}

function setData(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so that a map key such as `__proto__` stays data and never becomes a prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A list with the layer each item came from. */
interface TrackedList {
  items: unknown[];
  origins: string[];
}

/** Merges `layers`, the first the base and each next one over it. */
export function mergeLayers(layers: readonly MergeLayer[], lists: ListKeys): MergedLayers {
  const dropped: DroppedListItem[] = [];
  const unmatchedRemovals: UnmatchedRemoval[] = [];
  const inheritedOrigins = new Map<string, string[]>();
  const listKind = (keyPath: readonly string[]): 'replace' | 'union' | undefined =>
    lists.union.some((pattern) => matches(pattern, keyPath))
      ? 'union'
      : lists.replace.some((pattern) => matches(pattern, keyPath))
        ? 'replace'
        : undefined;

  const mergeList = (
    layer: MergeLayer,
    keyPath: readonly string[],
    kind: 'replace' | 'union',
    base: unknown,
    value: unknown,
  ): unknown[] => {
    const joined = keyPath.join('.');
    const inherited: TrackedList = Array.isArray(base)
      ? { items: [...base], origins: inheritedOrigins.get(joined) ?? base.map(() => layer.source) }
      : { items: [], origins: [] };
    const location = layer.locate?.([...keyPath]);
    const at = location === undefined ? {} : { line: location.line, column: location.column };
    const where = keyLocationText(layer.source, location);
    const edit = Array.isArray(value)
      ? kind === 'union'
        ? { add: value, remove: [] as unknown[], replace: false }
        : { add: value, remove: [] as unknown[], replace: true }
      : isPlainObject(value)
        ? {
            add: Array.isArray(value.add) ? value.add : [],
            remove: Array.isArray(value.remove) ? value.remove : [],
            replace: false,
          }
        : undefined;
    if (edit === undefined)
      throw new QuiverError('config_invalid', `${where}: ${joined} must be a list or { add, remove }.`, {
        fix: `Write ${joined} as a list, or as { add: [...] } to add to the inherited list.`,
        details: { file: layer.source, keyPath: joined },
      });
    if (kind === 'union' && edit.remove.length > 0)
      throw new QuiverError(
        'config_invalid',
        `${where}: ${joined} cannot remove inherited items: they hold in every layer.`,
        {
          fix: `Drop "remove" under ${joined}; to allow something an inherited rule denies or asks about, change the personality that wrote that rule.`,
          details: { file: layer.source, keyPath: joined },
        },
      );
    const keys = new Set(edit.replace ? edit.add.map(itemKey) : []);
    const removeKeys = new Set(edit.remove.map(itemKey));
    const kept: TrackedList = { items: [], origins: [] };
    inherited.items.forEach((item, index) => {
      const key = itemKey(item);
      const origin = inherited.origins[index] ?? layer.source;
      const removed = removeKeys.has(key);
      if (edit.replace ? !keys.has(key) : removed) {
        dropped.push({
          keyPath: joined,
          item: key,
          inheritedFrom: origin,
          droppedBy: layer.source,
          ...at,
          how: removed ? 'removed' : 'replaced',
        });
        return;
      }
      kept.items.push(item);
      kept.origins.push(origin);
    });
    const inheritedKeys = new Set(inherited.items.map(itemKey));
    for (const key of removeKeys)
      if (!inheritedKeys.has(key))
        unmatchedRemovals.push({ keyPath: joined, item: key, source: layer.source, ...at });
    // A replacing list keeps its own order (and an inherited item's place in it); additions go last.
    const result: TrackedList = edit.replace ? { items: [], origins: [] } : kept;
    const present = new Map(result.items.map((item, index) => [itemKey(item), index]));
    for (const item of edit.add) {
      const key = itemKey(item);
      const existing = present.get(key);
      const inheritedAt = inherited.items.findIndex((candidate) => itemKey(candidate) === key);
      const origin = inheritedAt === -1 ? layer.source : (inherited.origins[inheritedAt] ?? layer.source);
      if (existing !== undefined) {
        // A later `{ id, config }` over an inherited plugin id gives it new settings.
        result.items[existing] = item;
        continue;
      }
      present.set(key, result.items.length);
      result.items.push(item);
      result.origins.push(origin);
    }
    inheritedOrigins.set(joined, result.origins);
    return result.items;
  };

  /** A map the layer replaces with a plain value (`github: true` over `github: { excludeTools }`): its lists go too. */
  const replaceMap = (
    layer: MergeLayer,
    existing: Record<string, unknown>,
    keyPath: readonly string[],
  ): void => {
    for (const [key, value] of Object.entries(existing)) {
      const path = [...keyPath, key];
      const joined = path.join('.');
      const kind = listKind(path);
      if (isPlainObject(value)) replaceMap(layer, value, path);
      if (kind === undefined || !Array.isArray(value) || value.length === 0) continue;
      const location = layer.locate?.([...keyPath]);
      if (kind === 'union')
        throw new QuiverError(
          'config_invalid',
          `${keyLocationText(layer.source, location)}: ${keyPath.join('.')} replaces a map whose ${key} it inherits (${value.map(itemKey).join(', ')}): those hold in every layer.`,
          {
            fix: `Write ${keyPath.join('.')} as a map (e.g. {}) so that the inherited ${key} stay, and set only what changes.`,
            details: { file: layer.source, keyPath: joined },
          },
        );
      const origins = inheritedOrigins.get(joined) ?? value.map(() => layer.source);
      value.forEach((item, index) => {
        dropped.push({
          keyPath: joined,
          item: itemKey(item),
          inheritedFrom: origins[index] ?? layer.source,
          droppedBy: layer.source,
          ...(location === undefined ? {} : { line: location.line, column: location.column }),
          how: 'replaced',
        });
      });
    }
  };

  const mergeInto = (
    layer: MergeLayer,
    base: Record<string, unknown>,
    value: Record<string, unknown>,
    keyPath: readonly string[],
  ): Record<string, unknown> => {
    const merged: Record<string, unknown> = { ...base };
    for (const [key, next] of Object.entries(value)) {
      if (next === undefined) continue;
      const path = [...keyPath, key];
      const existing = merged[key];
      const kind = listKind(path);
      if (kind === undefined && isPlainObject(existing) && !isPlainObject(next))
        replaceMap(layer, existing, path);
      const result =
        kind !== undefined && (Array.isArray(next) || isPlainObject(next))
          ? mergeList(layer, path, kind, existing, next)
          : isPlainObject(existing) && isPlainObject(next)
            ? mergeInto(layer, existing, next, path)
            : isPlainObject(next)
              ? mergeInto(layer, {}, next, path)
              : next;
      setData(merged, key, result);
    }
    return merged;
  };

  let data: Record<string, unknown> = {};
  for (const layer of layers) data = mergeInto(layer, data, layer.data, []);
  return { data, dropped, unmatchedRemovals };
}
