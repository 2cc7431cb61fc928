import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import {
  type CapabilityBackend,
  type CapabilityRequest,
  type ConnectStoreOptions,
  type OpenDatabaseOptions,
  QuiverError,
  type SqlDatabase,
  type SqlStore,
  type StorageHandle,
  type StorageScope,
} from '@quiver/types';
import { applyMigrations } from './migrations.js';
import { type Durability, openDatabase } from './open-database.js';
import { createSqliteSqlStore } from './sqlite-sql-store.js';
import { storageFilePath } from './storage-paths.js';

const ALL_SCOPES: readonly StorageScope[] = ['personality', 'project', 'user'];

export interface StorageBackendOptions {
  /** Root of Quiver's data (usually `<workspace>/.quiver`). Databases live under `<dataDir>/storage`. */
  dataDir: string;
  /** Identity of the `user` scope; defaults to the operating-system user name. */
  userId?: string;
  /** Defaults to `full`: every acknowledged write survives process death and OS crashes. */
  durability?: Durability;
  busyTimeoutMs?: number;
}

export interface SqliteStorageBackend extends CapabilityBackend<'storage'> {
  readonly dataDir: string;
  /** Paths of the databases this backend has open. */
  openPaths(): string[];
  /** Closes every cached connection. Handles stay usable: the next `open` reopens the file. */
  close(): void;
}

interface CachedConnection {
  database: SqlDatabase;
  migrationCount: number;
}

// A tool may close the shared connection by mistake; the next open then reopens the file.
function isOpen(database: SqlDatabase): boolean {
  return (database as { open?: boolean }).open !== false;
}

function allowedScopes(declaration: CapabilityRequest<'storage'>['declaration']): readonly StorageScope[] {
  if (declaration === true || declaration.scopes === undefined) return ALL_SCOPES;
  return declaration.scopes;
}

/** The `storage` capability on SQLite files: one database per scope identity and name, cached per file. */
export function createStorageBackend(options: StorageBackendOptions): SqliteStorageBackend {
  const dataDir = resolve(options.dataDir);
  const userId = options.userId ?? userInfo().username;
  const connections = new Map<string, CachedConnection>();

  function cachedConnection(path: string, migrations: readonly string[]): SqlDatabase {
    const cached = connections.get(path);
    if (cached && isOpen(cached.database)) {
      if (cached.migrationCount !== migrations.length) {
        applyMigrations(cached.database, migrations);
        cached.migrationCount = migrations.length;
      }
      return cached.database;
    }
    const database = openDatabase(path, migrations, {
      ...(options.durability ? { durability: options.durability } : {}),
      ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    });
    connections.set(path, { database, migrationCount: migrations.length });
    return database;
  }

  return {
    capability: 'storage',
    dataDir,
    resolve(request: CapabilityRequest<'storage'>): StorageHandle {
      const identities: Record<StorageScope, string> = {
        personality: request.personalityId,
        project: dataDir,
        user: userId,
      };
      const permitted = allowedScopes(request.declaration);
      const scopes: Partial<Record<StorageScope, string>> = {};
      for (const scope of permitted) scopes[scope] = identities[scope];
      const pathOf = (name: string, scope: StorageScope): string => {
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
        return storageFilePath(dataDir, scope, identities[scope], name);
      };
      return {
        scopes: Object.freeze(scopes),
        open(name: string, openOptions: OpenDatabaseOptions): SqlDatabase {
          return cachedConnection(pathOf(name, openOptions.scope), openOptions.migrations);
        },
        async connect(name: string, connectOptions: ConnectStoreOptions): Promise<SqlStore> {
          const path = pathOf(name, connectOptions.scope);
          const migrations = connectOptions.migrations.sqlite;
          cachedConnection(path, migrations);
          return createSqliteSqlStore(name, () => cachedConnection(path, migrations));
        },
      };
    },
    openPaths(): string[] {
      return [...connections.keys()];
    },
    close(): void {
      for (const { database } of connections.values()) {
        if (isOpen(database)) database.close();
      }
      connections.clear();
    },
  };
}
