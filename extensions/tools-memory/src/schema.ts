/** Schema of each scope's `memory` database; migration i produces schema version i + 1. */
export const MEMORY_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE memories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    text TEXT NOT NULL,
    normalized TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '[]',
    tag_text TEXT NOT NULL DEFAULT '',
    saved_by TEXT NOT NULL,
    save_count INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX memories_normalized ON memories (normalized);
  CREATE INDEX memories_updated ON memories (updated_at);
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    text, tag_text,
    content = 'memories', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_after_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, text, tag_text) VALUES (new.id, new.text, new.tag_text);
  END;
  CREATE TRIGGER memories_after_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, text, tag_text) VALUES ('delete', old.id, old.text, old.tag_text);
  END;
  CREATE TRIGGER memories_after_update AFTER UPDATE OF text, tag_text ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, text, tag_text) VALUES ('delete', old.id, old.text, old.tag_text);
    INSERT INTO memories_fts (rowid, text, tag_text) VALUES (new.id, new.text, new.tag_text);
  END;
  `,
];

export const MEMORY_DATABASE = 'memory';
