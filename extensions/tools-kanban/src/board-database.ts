import { fail, isQuiverError, type SqlStore, type ToolContext, type ToolFailure } from '@quiver/types';
import { KANBAN_DATABASE, KANBAN_MIGRATIONS } from './schema.js';

/**
 * Boards live in the project scope: the board is the shared plan of work in a workspace, and
 * several personalities and agents coordinate on the same tickets.
 */
export const KANBAN_CAPABILITIES = { storage: { scopes: ['project' as const] } };

/** The board store on whichever backend the host runs (SQLite file or PostgreSQL schema). */
export async function openBoard(ctx: ToolContext): Promise<{ ok: true; store: SqlStore } | ToolFailure> {
  const storage = ctx.capabilities.storage;
  if (!storage) {
    return fail('not_available', 'The kanban tools need the storage capability, and none was provided.');
  }
  try {
    return {
      ok: true,
      store: await storage.connect(KANBAN_DATABASE, { scope: 'project', migrations: KANBAN_MIGRATIONS }),
    };
  } catch (error) {
    if (isQuiverError(error)) {
      const code =
        error.code === 'storage_unavailable' || error.code === 'storage_damaged'
          ? error.code
          : 'not_available';
      const fix = error.fix ? ` Fix: ${error.fix}` : '';
      return fail(code, `The kanban database could not be opened: ${error.message}${fix}`);
    }
    throw error;
  }
}

/** Who a status change or comment is attributed to. */
export function actorOf(ctx: ToolContext): string {
  return ctx.agent.name ?? ctx.personalityId;
}
