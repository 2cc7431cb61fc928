import { createHash } from 'node:crypto';
import { QuiverError, type StorageScope } from '@quiver/types';
import type pg from 'pg';
import { applyVersionedMigrations } from './versioned-migration.js';

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
 * Creates the schema if needed and brings it to `migrations.length` (see
 * `applyVersionedMigrations`), recording the version in the schema itself.
 */
export async function migrateStoreSchema(
  pool: pg.Pool,
  schema: string,
  name: string,
  migrations: readonly string[],
): Promise<number> {
  return applyVersionedMigrations(
    pool,
    {
      identity: async () => ({
        key: `store:${schema}`,
        describe: `The PostgreSQL store ${name} (schema ${schema})`,
      }),
      lockKey: lockKey(schema),
      async prepare(client) {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await client.query(`SET LOCAL search_path TO "${schema}"`);
        await client.query(
          'CREATE TABLE IF NOT EXISTS quiver_store_version (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version INTEGER NOT NULL)',
        );
      },
      async readVersion(client) {
        const row = await client.query<{ version: number }>('SELECT version FROM quiver_store_version');
        return row.rows[0]?.version ?? 0;
      },
      async writeVersion(client, version) {
        await client.query(
          `INSERT INTO quiver_store_version (singleton, version) VALUES (1, $1)
             ON CONFLICT (singleton) DO UPDATE SET version = excluded.version`,
          [version],
        );
      },
      newerThanKnown: (current, known) =>
        new QuiverError(
          'conflict',
          `The PostgreSQL store ${name} (schema ${schema}) is at version ${current}, newer than the ${known} migration(s) this code knows.`,
          {
            fix: 'Upgrade every replica to the same plugin version, or point this one at a database made for its version.',
            details: { name, schema, databaseVersion: current, knownVersion: known },
          },
        ),
      migrationFailed: (migration, error) =>
        new QuiverError(
          'internal',
          `Migration ${migration} of the store ${name} (schema ${schema}) failed: ${(error as Error).message}`,
          {
            fix: 'Fix the PostgreSQL SQL of that migration; the store was left at the previous version.',
            details: { name, schema, migration },
            cause: error,
          },
        ),
    },
    migrations,
  );
}
