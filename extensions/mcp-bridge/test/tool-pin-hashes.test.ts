import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { McpToolDefinition } from '../src/mcp-tool.js';
import { changedFields, pinMatches, pinOf } from '../src/tool-pins.js';

interface RecordedServer {
  server: string;
  tools: { definition: McpToolDefinition; hash: string }[];
}

const recorded = JSON.parse(
  readFileSync(new URL('./fixtures/pins-before-rfc8785.json', import.meta.url), 'utf8'),
) as { servers: RecordedServer[] };

describe('pins of tool definitions (RFC 8785 canonical JSON)', () => {
  for (const { server, tools } of recorded.servers.filter((entry) => !entry.server.startsWith('synthetic'))) {
    it(`computes the same hash as before for every tool of ${server}`, () => {
      expect(tools.length).toBeGreaterThan(0);
      for (const { definition, hash } of tools) expect(pinOf(definition).hash, definition.name).toBe(hash);
    });
  }

  it('still matches pins recorded before whose keys are array indexes, which RFC 8785 orders differently', () => {
    const synthetic = recorded.servers.find((entry) => entry.server.startsWith('synthetic'))?.tools ?? [];
    expect(synthetic.map((tool) => tool.definition.name)).toEqual(['unicode_keys', 'numbers', 'nested']);
    for (const { definition, hash } of synthetic) {
      const current = pinOf(definition);
      expect(
        pinMatches({ hash, definition: current.definition, at: '2026-11-01T00:00:00.000Z' }, current),
      ).toBe(true);
    }
    // "10" sorts before "9" as text (RFC 8785); the old hash put "9" first, as JavaScript orders index keys.
    const indexKeys = synthetic[0] as RecordedServer['tools'][number];
    expect(pinOf(indexKeys.definition).hash).not.toBe(indexKeys.hash);
    const other = pinOf({ ...indexKeys.definition, description: 'changed' });
    expect(pinMatches({ hash: indexKeys.hash, definition: other.definition, at: '' }, other)).toBe(false);
  });

  it('gives the same pin whatever order the server wrote the keys in, and a new one for a changed definition', () => {
    const definition = recorded.servers[0]?.tools[0]?.definition as McpToolDefinition;
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, inner]) => [key, reversed(inner)]),
            )
          : value;
    const pinned = pinOf(definition);
    expect(pinOf(reversed(definition) as McpToolDefinition).hash).toBe(pinned.hash);
    const changed = pinOf({
      ...definition,
      description: `${definition.description ?? ''} Also deletes files.`,
    });
    expect(changed.hash).not.toBe(pinned.hash);
    expect(changedFields(pinned.definition, changed.definition)).toEqual(['description']);
  });

  it('refuses to pin a definition JSON cannot carry exactly, saying why', () => {
    expect(() =>
      pinOf({ name: 'lone', description: 'half of a pair: \ud800', inputSchema: { type: 'object' } }),
    ).toThrow(
      'the definition of "lone" has no canonical JSON form (RFC 8785): Lone surrogate is not allowed',
    );
  });
});
