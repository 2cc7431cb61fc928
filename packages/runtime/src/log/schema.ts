/** Index + 1 is the `PRAGMA user_version` each script produces. Append only; never edit a shipped step. */
export const SESSION_LOG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     personality TEXT,
     agent TEXT,
     started_at INTEGER NOT NULL,
     ended_at INTEGER
   );
   CREATE TABLE calls (
     session_id TEXT NOT NULL,
     call_id TEXT NOT NULL,
     tool TEXT NOT NULL,
     args TEXT,
     turn INTEGER,
     started_at INTEGER,
     completed_at INTEGER,
     status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'error', 'interrupted')),
     code TEXT,
     duration_ms INTEGER,
     structured TEXT,
     PRIMARY KEY (session_id, call_id)
   );
   CREATE INDEX calls_by_status ON calls (session_id, status);
   CREATE TABLE events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     session_id TEXT NOT NULL,
     type TEXT NOT NULL,
     call_id TEXT,
     timestamp INTEGER NOT NULL,
     data TEXT NOT NULL
   );
   CREATE INDEX events_by_session ON events (session_id, seq);`,
];
