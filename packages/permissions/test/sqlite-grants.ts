import path from 'node:path';
import { openSqliteHostStore } from '@quiver/test-storage/sqlite';
import { PROJECT_GRANT_MIGRATIONS, ProjectGrantStore } from '../src/index.js';

/** The grant store over `<dataDir>/permissions.db`, opened as the host opens it. */
export function openSqliteGrants(dataDir: string): ProjectGrantStore {
  const store = openSqliteHostStore(
    path.join(dataDir, 'permissions.db'),
    'permissions',
    PROJECT_GRANT_MIGRATIONS,
  );
  return new ProjectGrantStore({ store, onClose: () => store.close() });
}
