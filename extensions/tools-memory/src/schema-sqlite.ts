/** SQLite schema of each scope's `memory` database; migration i produces schema version i + 1. */
export const SQLITE_MEMORY_MIGRATIONS: readonly string[] = [
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
  // Search moves from the raw text to analysed terms (stems and concept tokens, tags, and WordNet
  // synonyms at index time), computed in JavaScript on save. Rows written before this have
  // search_version 0; memory-index re-indexes them when the database is opened.
  `
  ALTER TABLE memories ADD COLUMN search_terms TEXT NOT NULL DEFAULT '';
  ALTER TABLE memories ADD COLUMN search_tags TEXT NOT NULL DEFAULT '';
  ALTER TABLE memories ADD COLUMN search_expansions TEXT NOT NULL DEFAULT '';
  ALTER TABLE memories ADD COLUMN search_version INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX memories_search_version ON memories (search_version);
  DROP TRIGGER memories_after_insert;
  DROP TRIGGER memories_after_delete;
  DROP TRIGGER memories_after_update;
  DROP TABLE memories_fts;
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    search_terms, search_tags, search_expansions,
    content = 'memories', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
  CREATE TRIGGER memories_after_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, search_terms, search_tags, search_expansions)
      VALUES (new.id, new.search_terms, new.search_tags, new.search_expansions);
  END;
  CREATE TRIGGER memories_after_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, search_terms, search_tags, search_expansions)
      VALUES ('delete', old.id, old.search_terms, old.search_tags, old.search_expansions);
  END;
  CREATE TRIGGER memories_after_update AFTER UPDATE OF search_terms, search_tags, search_expansions ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, search_terms, search_tags, search_expansions)
      VALUES ('delete', old.id, old.search_terms, old.search_tags, old.search_expansions);
    INSERT INTO memories_fts (rowid, search_terms, search_tags, search_expansions)
      VALUES (new.id, new.search_terms, new.search_tags, new.search_expansions);
  END;
  `,
];
