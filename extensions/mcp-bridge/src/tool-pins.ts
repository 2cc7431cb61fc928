import { createHash } from 'node:crypto';
import { errorMessage } from '@quiver/types';
import canonicalize from 'canonicalize';
import type { McpToolDefinition } from './mcp-tool.js';

/** The parts of a server's tool definition that a model or a person acts on. */
export interface PinnedDefinition {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export interface ToolPin {
  /** sha256 of the canonical JSON of `definition`. */
  hash: string;
  definition: PinnedDefinition;
  at: string;
}

/**
 * Where pinned definitions are kept. The host gives the bridge one in the user's data directory
 * so a repository cannot ship its own pins; without one, pins last as long as the process.
 */
export interface McpToolPinStore {
  /** The pinned definition of a server's tool, if there is one. */
  pinned(server: string, tool: string): ToolPin | undefined;
  /** Pins the first definition seen of a tool. */
  pin(server: string, tool: string, pin: ToolPin): void;
  /**
   * Pins the first definition seen of each of several tools of a server at once (a server's first
   * listing), as `pin` does each; a store that writes a file writes it once instead of once a tool.
   */
  pinAll?(server: string, pins: ReadonlyArray<readonly [tool: string, pin: ToolPin]>): void;
  /** Records a changed definition for `quiver mcp review`; it stays unavailable until approved. */
  quarantine(server: string, tool: string, pending: ToolPin): void;
  /** The server offers the pinned definition again: a change waiting for review is moot. */
  settle?(server: string, tool: string): void;
  /**
   * Calls `onChange` when the pins may have changed outside this bridge (a person approved a
   * change in another process or through serve's client); returns the function that stops it.
   */
  watch?(onChange: () => void): () => void;
}

/**
 * The RFC 8785 canonical JSON of a definition's part. A value with no canonical form (NaN, an
 * infinite number, a lone surrogate in a string) cannot be pinned, so its tool is withheld.
 */
function canonicalJson(value: unknown, tool: string): string {
  try {
    return canonicalize(value) ?? 'null';
  } catch (error) {
    throw new Error(
      `the definition of "${tool}" has no canonical JSON form (RFC 8785): ${errorMessage(error)}`,
    );
  }
}

const PINNED_FIELDS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/**
 * The pin of a definition as the server sent it (before any cleaning), so any change shows. Each
 * field is kept with its keys in canonical order and the hash is sha256 of the RFC 8785 JSON.
 */
export function pinOf(definition: McpToolDefinition): ToolPin {
  const pinned: PinnedDefinition = { name: definition.name };
  for (const field of PINNED_FIELDS) {
    const value = (definition as Record<string, unknown>)[field];
    if (value !== undefined) pinned[field] = JSON.parse(canonicalJson(value, definition.name));
  }
  const hash = createHash('sha256').update(canonicalJson(pinned, definition.name)).digest('hex');
  return { hash, definition: pinned, at: new Date().toISOString() };
}

/**
 * Whether a stored pin is the pin of `current`. Pins recorded before the hash was RFC 8785 hashed
 * the same canonical form as `JSON.stringify` writes it, which differs only where a key is an
 * array index (JavaScript puts "9" before "10"); such a pin still matches its definition.
 */
export function pinMatches(stored: ToolPin, current: ToolPin): boolean {
  if (stored.hash === current.hash) return true;
  const canonicalObject = JSON.parse(canonicalJson(current.definition, current.definition.name));
  return stored.hash === createHash('sha256').update(JSON.stringify(canonicalObject)).digest('hex');
}

/** The fields that differ between two pinned definitions, for messages and reviews. */
export function changedFields(before: PinnedDefinition, after: PinnedDefinition): string[] {
  return (['name', ...PINNED_FIELDS] as const).filter(
    (field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null),
  );
}

/** Pins kept in memory: a definition changed mid-process is still withheld. */
export function createMemoryPinStore(): McpToolPinStore {
  const pins = new Map<string, ToolPin>();
  const key = (server: string, tool: string) => JSON.stringify([server, tool]);
  return {
    pinned: (server, tool) => pins.get(key(server, tool)),
    pin: (server, tool, pin) => void pins.set(key(server, tool), pin),
    quarantine: () => {},
  };
}
