import type { McpToolPinFile } from '@quiver/plugin-host';

/** A server tool's definition that changed since it was pinned, withheld until a person approves it. */
export interface PendingDefinitionChange {
  server: string;
  tool: string;
  pinnedAt: string;
  changedAt: string;
  /** The hash of the changed definition: what an approval pins, so a later change is not approved with it. */
  hash: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** Every change waiting for review in a workspace's pin file. */
export function pendingDefinitionChanges(pins: McpToolPinFile): PendingDefinitionChange[] {
  return Object.entries(pins.servers).flatMap(([server, tools]) =>
    Object.entries(tools).flatMap(([tool, entry]) =>
      entry.pending === undefined
        ? []
        : [
            {
              server,
              tool,
              pinnedAt: entry.pinned.at,
              changedAt: entry.pending.at,
              hash: entry.pending.hash,
              before: entry.pinned.definition,
              after: entry.pending.definition,
            },
          ],
    ),
  );
}
