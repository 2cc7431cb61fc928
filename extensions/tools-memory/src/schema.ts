import type { PortableMigrations } from '@quiver/types';
import { POSTGRES_MEMORY_MIGRATIONS } from './schema-postgres.js';
import { SQLITE_MEMORY_MIGRATIONS } from './schema-sqlite.js';

/** Migrations of each scope's `memory` database on SQLite and on PostgreSQL; both reach the same version. */
export const MEMORY_MIGRATIONS: PortableMigrations = {
  sqlite: SQLITE_MEMORY_MIGRATIONS,
  postgres: POSTGRES_MEMORY_MIGRATIONS,
};

export const MEMORY_DATABASE = 'memory';
