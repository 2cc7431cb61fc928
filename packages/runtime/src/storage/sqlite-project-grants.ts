import path from 'node:path';
import { PROJECT_GRANT_MIGRATIONS, ProjectGrantStore } from '@quiver/permissions';
import { openSqliteHostStore } from '@quiver/storage-sqlite';

/**
 * The project grants of a single host: `<dataDir>/permissions.db`, opened now (a damaged or
 * unwritable file throws the error that names it and the fix). Closing the store closes the file.
 */
export function openSqliteProjectGrants(dataDir: string): ProjectGrantStore {
  const store = openSqliteHostStore(
    path.join(dataDir, 'permissions.db'),
    'permissions',
    PROJECT_GRANT_MIGRATIONS,
  );
  return new ProjectGrantStore({ store, onClose: () => store.close() });
}
