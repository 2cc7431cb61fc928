/** Index + 1 is the version each script produces in `quiver_schema_versions` ('session-log'). Append only. */
export const POSTGRES_SESSION_LOG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     personality TEXT,
     agent TEXT,
     started_at BIGINT NOT NULL,
     ended_at BIGINT
   );
   CREATE TABLE calls (
     session_id TEXT NOT NULL,
     call_id TEXT NOT NULL,
     tool TEXT NOT NULL,
     args TEXT,
     turn INTEGER,
     started_at BIGINT,
     completed_at BIGINT,
     status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'error', 'interrupted')),
     code TEXT,
     duration_ms INTEGER,
     structured TEXT,
     replica TEXT,
     PRIMARY KEY (session_id, call_id)
   );
   CREATE INDEX calls_running ON calls (replica) WHERE status = 'running';
   CREATE TABLE events (
     seq BIGSERIAL PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     session_id TEXT NOT NULL,
     type TEXT NOT NULL,
     call_id TEXT,
     timestamp BIGINT NOT NULL,
     data TEXT NOT NULL
   );
   CREATE INDEX events_by_session ON events (session_id, seq);`,
];
