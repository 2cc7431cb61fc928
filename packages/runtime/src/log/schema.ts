import type { PortableMigrations } from '@quiver/types';

/**
 * The session log's schema on either backend. Index + 1 is the version each script produces
 * (`PRAGMA user_version` on SQLite, `quiver_schema_versions` 'session-log' on PostgreSQL).
 * Append only; never edit a shipped step. PostgreSQL started with the replica that runs each
 * call; SQLite gains the column in its second version. Version 3 records who called (the
 * signed-in caller of `quiver serve --http`).
 */
export const SESSION_LOG_MIGRATIONS: PortableMigrations = {
  sqlite: [
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
    'ALTER TABLE calls ADD COLUMN replica TEXT',
    'ALTER TABLE sessions ADD COLUMN caller TEXT',
  ],
  postgres: [
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
    '-- Version 2 is where SQLite caught up with the replica column PostgreSQL started with.',
    'ALTER TABLE sessions ADD COLUMN caller TEXT',
  ],
};
