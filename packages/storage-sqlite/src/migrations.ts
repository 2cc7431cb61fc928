import { QuiverError, type SqlDatabase } from '@quiver/types';

function readUserVersion(database: SqlDatabase): number {
  return Number(database.pragma('user_version', { simple: true }));
}

function refuseNewerDatabase(database: SqlDatabase, version: number, known: number): never {
  throw new QuiverError(
    'conflict',
    `The database ${database.name} is at schema version ${version}, newer than the ${known} migration(s) this code knows.`,
    {
      fix: 'Upgrade the package that owns this database, or point the data directory at a copy made for this version.',
      details: { path: database.name, databaseVersion: version, knownVersion: known },
    },
  );
}

/**
 * Brings the schema to `migrations.length`: migration i produces version i + 1. Each migration
 * runs in its own BEGIN IMMEDIATE transaction and re-reads the version inside it, so two
 * processes opening the same file at once apply every migration exactly once.
 */
export function applyMigrations(database: SqlDatabase, migrations: readonly string[]): number {
  const known = migrations.length;
  let version = readUserVersion(database);
  if (version > known) refuseNewerDatabase(database, version, known);
  while (version < known) {
    const applied = database
      .transaction((): number => {
        const current = readUserVersion(database);
        if (current > known) refuseNewerDatabase(database, current, known);
        if (current >= known) return current;
        try {
          database.exec(migrations[current]!);
        } catch (error) {
          throw new QuiverError(
            'internal',
            `Migration ${current + 1} of ${database.name} failed: ${(error as Error).message}`,
            {
              fix: 'Fix the SQL of that migration; the database was left at the previous version.',
              details: { path: database.name, migration: current + 1 },
              cause: error,
            },
          );
        }
        database.pragma(`user_version = ${current + 1}`);
        return current + 1;
      })
      .immediate();
    version = applied;
  }
  return version;
}
