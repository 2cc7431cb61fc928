import type { QuiverError } from '@quiver/types';
import type pg from 'pg';
import { isConnectionLoss, reconnectDelay, sleep, storageUnavailable } from './connection-faults.js';
import {
  ensureIdentityTable,
  recordedAt,
  recordIdentity,
  type StoreIdentity,
  storeTablesGone,
} from './store-identity.js';

/** Where one versioned schema keeps its version, which lock serializes it, and how it names failures. */
export interface VersionedSchema {
  /** Which store this is: one recorded at a version above 0 and found at 0 again is damaged. */
  identity(client: pg.PoolClient): Promise<StoreIdentity>;
  /** The advisory lock key (a 64-bit integer, as a number or in decimal) held while migrating. */
  lockKey: number | string;
  /** Creates what holds the version, inside the migration's transaction. */
  prepare(client: pg.PoolClient): Promise<void>;
  readVersion(client: pg.PoolClient): Promise<number>;
  writeVersion(client: pg.PoolClient, version: number): Promise<void>;
  /** The database is at a version newer than this code knows. */
  newerThanKnown(current: number, known: number): QuiverError;
  /** Migration `migration` (1-based) failed with `error`. */
  migrationFailed(migration: number, error: unknown): QuiverError;
}

/**
 * Brings a schema to `migrations.length`: migration i produces version i + 1. Each migration runs
 * in its own transaction under the schema's advisory lock, re-reading the version inside it, so
 * replicas starting at once apply each one exactly once; a failed migration leaves the previous
 * version (PostgreSQL DDL is transactional, so a migration is all or nothing).
 */
export async function applyVersionedMigrations(
  pool: pg.Pool,
  schema: VersionedSchema,
  migrations: readonly string[],
): Promise<number> {
  const known = migrations.length;
  // Every step re-reads the version under the lock, so a migration lost with its connection (a
  // stale pooled one after a failover, a restart) runs again on a new one, past the pool's size.
  const reconnects = Math.max(3, (pool.options.max ?? 0) + 1);
  for (let lost = 0; ; ) {
    const client = await pool.connect();
    let broken = false;
    let retry = false;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [schema.lockKey]);
      await ensureIdentityTable(client);
      const identity = await schema.identity(client);
      const createdAt = await recordedAt(client, identity);
      await schema.prepare(client);
      const current = await schema.readVersion(client);
      if (current === 0 && createdAt !== undefined && known > 0)
        throw await storeTablesGone(client, identity, createdAt);
      if (current > known) throw schema.newerThanKnown(current, known);
      if (current === known) {
        if (createdAt === undefined && current > 0) await recordIdentity(client, identity);
        await client.query('COMMIT');
        return current;
      }
      try {
        await client.query(migrations[current] as string);
      } catch (error) {
        throw isConnectionLoss(error) ? error : schema.migrationFailed(current + 1, error);
      }
      await schema.writeVersion(client, current + 1);
      if (createdAt === undefined) await recordIdentity(client, identity);
      await client.query('COMMIT');
    } catch (error) {
      // A connection that cannot even roll back is not handed to the next caller.
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      if (!isConnectionLoss(error)) throw error;
      lost += 1;
      if (lost >= reconnects)
        throw storageUnavailable(error, { where: 'the PostgreSQL storage', doing: 'migrating a schema' });
      retry = true;
    } finally {
      client.release(broken);
    }
    if (retry) await sleep(reconnectDelay(lost));
  }
}
