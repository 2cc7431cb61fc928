import { randomInt } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { QuiverError } from '@quiver/types';
import Database from 'better-sqlite3';
import { asidePath, moveAsideFix } from './store-faults.js';

/** Beside the stores of one directory: which of them Quiver created, so that an emptied one is noticed. */
export const STORE_RECORD_FILE = 'stores.json';

export interface StoreRecordEntry {
  /** When Quiver first found the store holding its schema (ISO 8601). */
  createdAt: string;
  /**
   * The store's own id, kept in the file too (`PRAGMA application_id`): another store's file
   * copied over this one (a different schema, other data) carries another id.
   */
  applicationId?: number;
}

interface StoreRecordFile {
  version: 1;
  stores: Record<string, StoreRecordEntry>;
}

function recordPathOf(path: string): string {
  return join(dirname(path), STORE_RECORD_FILE);
}

/** The identity records of the stores in `directory`; an unreadable record is reported, never taken for none. */
export function readStoreRecords(directory: string): Record<string, StoreRecordEntry> {
  const file = join(directory, STORE_RECORD_FILE);
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoreRecordFile>;
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.stores !== 'object')
      throw new Error('no "stores" object');
    return parsed.stores as Record<string, StoreRecordEntry>;
  } catch (error) {
    throw new QuiverError(
      'storage_damaged',
      `The store identity record ${file} is unreadable (${(error as Error).message}); without it Quiver cannot tell a new store from one that lost its data.`,
      {
        fix: `Move it aside (mv "${file}" "${file}.damaged"); Quiver writes a new one for the stores it finds intact.`,
        details: { path: file },
        cause: error,
      },
    );
  }
}

/** The record of the store at `path`, if Quiver created it. */
export function storeRecordOf(path: string): StoreRecordEntry | undefined {
  return readStoreRecords(dirname(path))[basename(path)];
}

/**
 * Records that the store at `path` exists and holds its schema. Written with a rename, so a
 * reader never sees half a file; two processes recording at once may drop each other's new
 * entry, which the next open of that store writes again.
 */
export function recordStore(path: string): void {
  const directory = dirname(path);
  const stores = readStoreRecords(directory);
  const name = basename(path);
  const entry = stores[name];
  if (entry?.applicationId !== undefined && entry.applicationId === applicationIdInHeader(path)) return;
  const applicationId = claimApplicationId(path);
  if (entry?.applicationId === applicationId) return;
  stores[name] = { createdAt: entry?.createdAt ?? new Date().toISOString(), applicationId };
  const file = recordPathOf(path);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, stores } satisfies StoreRecordFile, null, 2)}\n`);
  renameSync(temporary, file);
}

/**
 * The store's application_id, given a random one first when it has none. The write transaction
 * makes two processes opening a new store at once agree on one id. (No checkpoint is forced: it
 * would move a schema still in the WAL into the file, and the last connection to close does it.)
 */
function claimApplicationId(path: string): number {
  const database = new Database(path, { fileMustExist: true, timeout: 5_000 });
  try {
    const read = () => Number(database.pragma('application_id', { simple: true }));
    const current = read();
    if (current !== 0) return current;
    return database
      .transaction(() => {
        const again = read();
        if (again !== 0) return again;
        const id = randomInt(1, 2 ** 31 - 1);
        database.pragma(`application_id = ${id}`);
        return id;
      })
      .immediate();
  } finally {
    database.close();
  }
}

/** Where the header keeps `PRAGMA application_id` (a big-endian signed 32-bit integer). */
const APPLICATION_ID_OFFSET = 68;

/** The application_id in the file's header (which may lag the WAL), or undefined when it has no header. */
function applicationIdInHeader(path: string): number | undefined {
  try {
    const header = headerOf(path);
    return header.length < 100 ? undefined : header.readInt32BE(APPLICATION_ID_OFFSET);
  } catch {
    return undefined;
  }
}

/** The application_id SQLite reports (the WAL included), when the header disagrees with `expected`. */
function applicationIdOf(path: string, expected: number): number | undefined {
  const inHeader = applicationIdInHeader(path);
  if (inHeader === expected) return inHeader;
  try {
    const database = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return Number(database.pragma('application_id', { simple: true }));
    } finally {
      database.close();
    }
  } catch {
    // Not a database at all: the open reports it as damaged.
    return expected;
  }
}

/** Size of the file at `path`, or undefined when there is none. */
function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** Where the header keeps `PRAGMA user_version` (a big-endian 32-bit integer). */
const USER_VERSION_OFFSET = 60;

/** The first 100 bytes of the file (the SQLite header), or fewer when it is shorter. */
function headerOf(path: string): Buffer {
  const header = Buffer.alloc(100);
  const descriptor = openSync(path, 'r');
  try {
    return header.subarray(0, readSync(descriptor, header, 0, header.length, 0));
  } finally {
    closeSync(descriptor);
  }
}

/**
 * True when the file is a SQLite database without any schema of ours (`user_version` 0): a
 * store Quiver migrated always has one, so such a file was replaced by a new database or lost
 * the write-ahead log that held its data. The header is read first; only a header that says 0
 * (the schema may still sit in the WAL, not yet copied into the file) is opened to ask SQLite.
 * A file that is no database at all is left to the open, which reports it as damaged.
 */
function holdsNoSchema(path: string): boolean {
  try {
    const header = headerOf(path);
    if (header.length < 100 || !header.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return false;
    if (header.readUInt32BE(USER_VERSION_OFFSET) !== 0) return false;
    const database = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return Number(database.pragma('user_version', { simple: true })) === 0;
    } finally {
      database.close();
    }
  } catch {
    return false;
  }
}

/**
 * Refuses to open as new a store Quiver created and that is now missing, empty (truncated,
 * deleted) or a database without its schema (replaced, or its WAL lost): it held data, so
 * reopening it would silently start over. A person who moved it aside (`<file>.damaged`) has
 * said to start a new one.
 */
export function assertStoreNotEmptied(path: string): void {
  const record = storeRecordOf(path);
  if (record === undefined) return;
  const size = sizeOf(path);
  const schemaless = size !== undefined && size > 0 && holdsNoSchema(path);
  if (size !== undefined && size > 0 && !schemaless) {
    assertSameStore(path, record);
    return;
  }
  if (existsSync(asidePath(path))) return;
  const state =
    size === undefined
      ? 'is missing'
      : schemaless
        ? 'is a database without any of its tables (replaced by a new database, or its write-ahead log -wal was lost)'
        : 'is empty (0 bytes)';
  throw new QuiverError(
    'storage_damaged',
    `The store ${path} ${state}, but Quiver created it on ${record.createdAt} and it held data (recorded in ${recordPathOf(path)}); it is not reopened as a new, empty store.`,
    {
      fix: `Restore ${path} from a backup if you have one. To start a new, empty store instead: ${
        size === undefined
          ? `create the marker file ${asidePath(path)} (touch "${asidePath(path)}"); Quiver then starts a new one.`
          : moveAsideFix(path)
      }`,
      details: {
        path,
        state: size === undefined ? 'missing' : schemaless ? 'schemaless' : 'empty',
        createdAt: record.createdAt,
      },
    },
  );
}

/** Refuses a file that holds another store than the one recorded: copied or swapped over it. */
function assertSameStore(path: string, record: StoreRecordEntry): void {
  if (record.applicationId === undefined) return;
  const found = applicationIdOf(path, record.applicationId);
  if (found === record.applicationId) return;
  throw new QuiverError(
    'storage_damaged',
    `The store ${path} holds another database than the one Quiver created there on ${record.createdAt} (its SQLite application_id is ${found}, ${recordPathOf(path)} records ${record.applicationId}): another store's file was copied or moved over it; it is not used as this store.`,
    {
      fix: `Restore ${path} from a backup if you have one. If you put this file there on purpose, delete the "${basename(path)}" entry of ${recordPathOf(path)}. To start a new, empty store instead: ${moveAsideFix(path)}`,
      details: { path, state: 'another-store', createdAt: record.createdAt },
    },
  );
}
