import { QuiverError, type SqlDatabase } from '@quiver/types';
import { moveAsideFix } from './store-faults.js';

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

/** A table name as SQL writes it: bare, or quoted with "", `` or []. */
const NAME = String.raw`(?:"((?:[^"]|"")+)"|\`([^\`]+)\`|\[([^\]]+)\]|([A-Za-z_][\w$]*))`;
const STATEMENT = new RegExp(
  String.raw`\bCREATE\s+(TEMP\s+|TEMPORARY\s+)?(?:VIRTUAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:main\s*\.\s*)?${NAME}` +
    String.raw`|\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:main\s*\.\s*)?${NAME}` +
    String.raw`|\bALTER\s+TABLE\s+(?:main\s*\.\s*)?${NAME}\s+RENAME\s+TO\s+${NAME}`,
  'gi',
);

function nameOf(groups: readonly (string | undefined)[]): string {
  const [quoted, backticked, bracketed, bare] = groups;
  return (quoted?.replaceAll('""', '"') ?? backticked ?? bracketed ?? bare ?? '').toLowerCase();
}

/**
 * The tables the migrations leave behind, lower-cased: each one created and not dropped or
 * renamed since (temporary tables do not count). Comments and string literals are blanked first.
 */
export function tablesOfMigrations(migrations: readonly string[]): Set<string> {
  const tables = new Set<string>();
  for (const migration of migrations) {
    const sql = migration.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'/g, (text) =>
      ' '.repeat(text.length),
    );
    for (const match of sql.matchAll(STATEMENT)) {
      const g = match.slice(1);
      if (match[0].toUpperCase().startsWith('CREATE')) {
        if (g[0] === undefined) tables.add(nameOf(g.slice(1, 5)));
      } else if (match[0].toUpperCase().startsWith('DROP')) tables.delete(nameOf(g.slice(5, 9)));
      else {
        tables.delete(nameOf(g.slice(9, 13)));
        tables.add(nameOf(g.slice(13, 17)));
      }
    }
  }
  return tables;
}

/**
 * The store error of a database at schema `version` without tables its migrations made: it was
 * changed outside Quiver (a table dropped, the file edited), and every use of such a table would
 * fail with SQLite's bare "no such table". Undefined when every table is there.
 */
export function missingTablesError(
  database: Pick<SqlDatabase, 'name' | 'prepare'>,
  migrations: readonly string[],
  version: number,
): QuiverError | undefined {
  const expected = tablesOfMigrations(migrations.slice(0, version));
  if (expected.size === 0) return undefined;
  const rows = database
    .prepare("SELECT lower(name) AS name FROM sqlite_schema WHERE type = 'table'")
    .all() as {
    name: string;
  }[];
  const present = new Set(rows.map((row) => row.name));
  const missing = [...expected].filter((table) => !present.has(table)).sort();
  if (missing.length === 0) return undefined;
  const path = database.name;
  return new QuiverError(
    'storage_damaged',
    `The database ${path} is at schema version ${version} but lacks the table${missing.length === 1 ? '' : 's'} ${missing.join(', ')} that its migrations made: it was changed outside Quiver (a table dropped, or the file edited). It is not used, and nothing in it was changed.`,
    {
      fix: `Restore ${path} from a backup if you have one. To start a new, empty store instead: ${moveAsideFix(path)}`,
      details: { path, missing, version },
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
  const missing = missingTablesError(database, migrations, version);
  if (missing !== undefined) throw missing;
  return version;
}
