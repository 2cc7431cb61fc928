import { visibleText } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { lineDiff } from '../commands/definition-diff.js';
import { pendingDefinitionChanges } from '../commands/pending-definition-changes.js';
import type { ConsoleReview } from './wire.js';

export type { ConsoleReview } from './wire.js';

/** The pin file's changes waiting for review, as `quiver mcp review` reads them. */
export async function definitionReviews(quiver: Quiver): Promise<ConsoleReview[]> {
  const pins = await quiver.host.trustStorage.readPins();
  if (pins === undefined) return [];
  return pendingDefinitionChanges(pins).map((change) => ({
    server: visibleText(change.server),
    tool: visibleText(change.tool),
    hash: change.hash,
    pinnedAt: change.pinnedAt,
    changedAt: change.changedAt,
    diff: lineDiff(JSON.stringify(change.before, null, 2), JSON.stringify(change.after, null, 2)).map(
      (line) => visibleText(line),
    ),
  }));
}

/**
 * Approves the change the page showed: the one with this hash. Undefined when it is pinned now;
 * otherwise why not (no such change waits, or the server changed it again since it was shown).
 */
export async function approveDefinition(quiver: Quiver, body: unknown): Promise<string | undefined> {
  const { server, tool, hash } = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  if (typeof server !== 'string' || typeof tool !== 'string' || typeof hash !== 'string')
    return 'send the server, tool and hash of the change the page showed';
  const pins = await quiver.host.trustStorage.readPins();
  const change = pins
    ? pendingDefinitionChanges(pins).find(
        (entry) => visibleText(entry.server) === server && visibleText(entry.tool) === tool,
      )
    : undefined;
  if (!change) return `no changed definition of ${tool} (${server}) waits for review`;
  if (change.hash !== hash)
    return `${tool} (${server}) changed again since the page showed it; look at the new change`;
  if (!(await quiver.host.trustStorage.approve(change)))
    return `${tool} (${server}) changed again while it was approved; it stays withheld`;
  return undefined;
}
