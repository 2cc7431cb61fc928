import path from 'node:path';
import { PROJECT_GRANT_MIGRATIONS, ProjectGrantStore } from '@quiver/permissions';
import type { SqliteBackend } from './sqlite-backend.js';

/**
 * The project grants of a single host: `<dataDir>/permissions.db`, opened now through the given
 * SQLite backend (a damaged or unwritable file throws the error that names it and the fix).
 * Closing the store closes the file.
 */
export function openSqliteProjectGrants(dataDir: string, sqlite: SqliteBackend): ProjectGrantStore {
  const store = sqlite.openHostStore(
    path.join(dataDir, 'permissions.db'),
    'permissions',
    PROJECT_GRANT_MIGRATIONS,
  );
  return new ProjectGrantStore({ store, onClose: () => store.close() });
}
