import { userInfo } from 'node:os';
import {
  type CapabilityBackend,
  type CapabilityRequest,
  type ConnectStoreOptions,
  QuiverError,
  type SqlDatabase,
  type SqlStore,
  type StorageHandle,
  type StorageScope,
} from '@quiver/types';
import type pg from 'pg';
import { connectPostgres, type PostgresConnectionOptions } from './connect-postgres.js';
import { createPostgresSqlStore } from './postgres-sql-store.js';
import { migrateStoreSchema, storeSchemaName } from './store-schema.js';

const ALL_SCOPES: readonly StorageScope[] = ['personality', 'project', 'user'];

export interface PostgresStorageBackendOptions extends PostgresConnectionOptions {
  /** Identity of the `project` scope: every replica of one project must give the same. */
  project: string;
  /** Identity of the `user` scope; defaults to the operating-system user name. */
  userId?: string;
}

export interface PostgresStorageBackend extends CapabilityBackend<'storage'> {
  /** Schemas this backend has migrated, one per (scope identity, database name). */
  schemas(): string[];
  /** Ends the pool; stores handed out stop working. */
  close(): Promise<void>;
}

function allowedScopes(declaration: CapabilityRequest<'storage'>['declaration']): readonly StorageScope[] {
  if (declaration === true || declaration.scopes === undefined) return ALL_SCOPES;
  return declaration.scopes;
}

/**
 * The `storage` capability on PostgreSQL: `connect()` gives each (scope identity, name) its own
 * schema, migrated once across replicas. It owns its pool, because each connection's
 * search_path points at the schema of the store it last served.
 */
export async function openPostgresStorageBackend(
  options: PostgresStorageBackendOptions,
): Promise<PostgresStorageBackend> {
  const pool: pg.Pool = await connectPostgres({ applicationName: 'quiver-storage', ...options });
  const userId = options.userId ?? userInfo().username;
  const migrated = new Map<string, { count: number; ready: Promise<unknown> }>();
  let closed: Promise<void> | undefined;

  function migrate(schema: string, name: string, migrations: readonly string[]): Promise<unknown> {
    const cached = migrated.get(schema);
    if (cached && cached.count === migrations.length) return cached.ready;
    const ready = migrateStoreSchema(pool, schema, name, migrations);
    migrated.set(schema, { count: migrations.length, ready });
    ready.catch(() => {
      if (migrated.get(schema)?.ready === ready) migrated.delete(schema);
    });
    return ready;
  }

  return {
    capability: 'storage',
    resolve(request: CapabilityRequest<'storage'>): StorageHandle {
      const identities: Record<StorageScope, string> = {
        personality: request.personalityId,
        project: options.project,
        user: userId,
      };
      const permitted = allowedScopes(request.declaration);
      const scopes: Partial<Record<StorageScope, string>> = {};
      for (const scope of permitted) scopes[scope] = identities[scope];
      return {
        scopes: Object.freeze(scopes),
        async connect(name: string, connectOptions: ConnectStoreOptions): Promise<SqlStore> {
          const scope = connectOptions.scope;
          if (!permitted.includes(scope)) {
            throw new QuiverError(
              'not_permitted',
              `The tool ${request.toolName} did not declare the ${scope} storage scope (it declared: ${permitted.join(', ') || 'none'}).`,
              {
                fix: `Add '${scope}' to capabilities.storage.scopes of ${request.toolName}.`,
                details: { toolName: request.toolName, scope, declared: [...permitted] },
              },
            );
          }
          const schema = storeSchemaName(scope, identities[scope], name);
          await migrate(schema, name, connectOptions.migrations.postgres);
          return createPostgresSqlStore(pool, schema, name);
        },
        open(name: string): SqlDatabase {
          throw new QuiverError(
            'not_available',
            `The tool ${request.toolName} opened the database ${name} with storage.open(), which works only on SQLite, but this host stores state in PostgreSQL.`,
            {
              fix: `Port ${request.toolName} to storage.connect(name, { scope, migrations: { sqlite, postgres } }), the portable async API, or run the host with SQLite storage.`,
              details: { toolName: request.toolName, name },
            },
          );
        },
      };
    },
    schemas(): string[] {
      return [...migrated.keys()];
    },
    close(): Promise<void> {
      closed ??= pool.end();
      return closed;
    },
  };
}
