// The database drivers themselves, for tests that inspect what a store wrote. Only the storage
// packages, wiring, the CLI and these test utilities depend on a driver.
export { default as Database } from 'better-sqlite3';
export { default as pg } from 'pg';

import { createRequire } from 'node:module';

/** Where better-sqlite3 resolves from: for child processes (`node -e`) that open a database themselves. */
export const sqliteDriverPath: string = createRequire(import.meta.url).resolve('better-sqlite3');
