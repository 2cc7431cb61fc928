import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import type pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { connectPostgres } from '../src/connect-postgres.js';
import { applyPostgresMigrations } from '../src/migrations.js';

describeWithSystemTools(['postgres', 'initdb'])('versioned migrations on PostgreSQL', () => {
  const server = usePostgresServer();
  const pools: pg.Pool[] = [];

  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  async function freshDatabase(): Promise<string> {
    return server().freshDatabase('migrations');
  }
  async function connect(url: string): Promise<pg.Pool> {
    const pool = await connectPostgres({ url });
    pools.push(pool);
    return pool;
  }

  const NOTES = [
    'CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL)',
    "INSERT INTO notes (body) VALUES ('seeded once')",
  ];

  it('applies each migration exactly once when several replicas start at the same time', async () => {
    const url = await freshDatabase();
    const replicas = await Promise.all([1, 2, 3, 4].map(() => connect(url)));
    const versions = await Promise.all(replicas.map((pool) => applyPostgresMigrations(pool, 'notes', NOTES)));
    expect(versions).toEqual([2, 2, 2, 2]);
    const rows = await replicas[0]!.query('SELECT body FROM notes');
    expect(rows.rows).toEqual([{ body: 'seeded once' }]);
  });

  it('applies only the migrations added since the last start', async () => {
    const pool = await connect(await freshDatabase());
    expect(await applyPostgresMigrations(pool, 'notes', NOTES.slice(0, 1))).toBe(1);
    expect(await applyPostgresMigrations(pool, 'notes', NOTES)).toBe(2);
    expect(await applyPostgresMigrations(pool, 'notes', NOTES)).toBe(2);
    expect((await pool.query('SELECT count(*)::int AS n FROM notes')).rows[0]).toEqual({ n: 1 });
  });

  it('leaves the previous version in place when a migration fails', async () => {
    const pool = await connect(await freshDatabase());
    const broken = [...NOTES, 'ALTER TABLE notes ADD COLUMN tag TEXT', 'ALTER TABLE no_such_table ADD x INT'];
    await expect(applyPostgresMigrations(pool, 'notes', broken)).rejects.toThrow(
      /Migration 4 of notes failed/,
    );
    const version = await pool.query("SELECT version FROM quiver_schema_versions WHERE component = 'notes'");
    expect(version.rows).toEqual([{ version: 3 }]);
  });

  it('refuses a database whose schema is newer than the code, saying what to do', async () => {
    const pool = await connect(await freshDatabase());
    await applyPostgresMigrations(pool, 'notes', NOTES);
    await expect(applyPostgresMigrations(pool, 'notes', NOTES.slice(0, 1))).rejects.toMatchObject({
      code: 'conflict',
      fix: expect.stringContaining('same Quiver version'),
    });
  });
});
