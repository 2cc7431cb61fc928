/** Schema of the `kanban` database; migration i produces schema version i + 1. */
export const KANBAN_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE tickets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('todo', 'in_progress', 'blocked', 'done', 'archived')),
    priority TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
    assignee TEXT,
    labels TEXT NOT NULL DEFAULT '[]',
    status_before_archive TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1
  );
  CREATE INDEX tickets_board_status ON tickets (board, status);
  CREATE TABLE comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ticket_id INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX comments_ticket ON comments (ticket_id);
  CREATE TABLE links (
    from_id INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    to_id INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('blocks', 'relates_to', 'duplicates', 'parent_of')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (from_id, to_id, type),
    CHECK (from_id <> to_id)
  );
  CREATE INDEX links_to ON links (to_id);
  CREATE TABLE status_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ticket_id INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    from_status TEXT,
    to_status TEXT NOT NULL,
    changed_by TEXT NOT NULL,
    note TEXT,
    changed_at TEXT NOT NULL
  );
  CREATE INDEX status_history_ticket ON status_history (ticket_id);
  `,
];

export const KANBAN_DATABASE = 'kanban';
