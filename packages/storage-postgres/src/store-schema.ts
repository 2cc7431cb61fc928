import { createHash } from 'node:crypto';
import { QuiverError, type StorageScope } from '@quiver/types';
import type pg from 'pg';

// The same rule as SQLite file names, so a name that works on one backend works on the other.
const STORE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$/;

/**
 * The schema of one (scope, identity, name): `quiver_<name>_<hash>`. The hash covers all three,
 * so two personalities never share a schema even when their ids differ only in characters a
 * PostgreSQL identifier cannot hold, and the name part is only there for a person reading psql.
 */
export function storeSchemaName(scope: StorageScope, identity: string, name: string): string {
  if (!STORE_NAME.test(name) || name.includes('..')) {
    throw new QuiverError('input_invalid', `The database name ${JSON.stringify(name)} cannot name a store.`, {
      fix: `Use 1-128 characters of letters, digits, '_', '-', '.', '@', starting with a letter or digit and without '..'.`,
      details: { name },
    });
  }
  const readable = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 24);
  const hash = createHash('sha256').update(`${scope}\0${identity}\0${name}`).digest('hex').slice(0, 16);
  return `quiver_${readable}_${hash}`;
}

/** A 63-bit advisory lock key of its own per schema, so unrelated stores migrate in parallel. */
function lockKey(schema: string): string {
  return BigInt(
    `0x${createHash('sha256').update(`quiver-store:${schema}`).digest('hex').slice(0, 15)}`,
  ).toString();
}

/**
 * Creates the schema if needed and brings it to `migrations.length`, recording the version in
 * the schema itself. Each migration runs in its own transaction under the schema's advisory lock
 * and re-reads the version inside it, so replicas opening the store at once apply each migration
 * exactly once; a failing migration leaves the previous version (DDL is transactional).
 */
export async function migrateStoreSchema(
  pool: pg.Pool,
  schema: string,
  name: string,
  migrations: readonly string[],
): Promise<number> {
  const known = migrations.length;
  for (;;) {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey(schema)]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`SET LOCAL search_path TO "${schema}"`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS quiver_store_version (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version INTEGER NOT NULL)',
      );
      const row = await client.query<{ version: number }>('SELECT version FROM quiver_store_version');
      const current = row.rows[0]?.version ?? 0;
      if (current > known) {
        throw new QuiverError(
          'conflict',
          `The PostgreSQL store ${name} (schema ${schema}) is at version ${current}, newer than the ${known} migration(s) this code knows.`,
          {
            fix: 'Upgrade every replica to the same plugin version, or point this one at a database made for its version.',
            details: { name, schema, databaseVersion: current, knownVersion: known },
          },
        );
      }
      if (current === known) {
        await client.query('COMMIT');
        return current;
      }
      try {
        await client.query(migrations[current] as string);
      } catch (error) {
        throw new QuiverError(
          'internal',
          `Migration ${current + 1} of the store ${name} (schema ${schema}) failed: ${(error as Error).message}`,
          {
            fix: 'Fix the PostgreSQL SQL of that migration; the store was left at the previous version.',
            details: { name, schema, migration: current + 1 },
            cause: error,
          },
        );
      }
      await client.query(
        `INSERT INTO quiver_store_version (singleton, version) VALUES (1, $1)
           ON CONFLICT (singleton) DO UPDATE SET version = excluded.version`,
        [current + 1],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
