import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import type { PortableMigrations } from '@quiver/types';
import { afterEach, expect, it } from 'vitest';
import { openSharedDatabase, type SharedDatabase } from '../src/shared-database.js';

const NOTES: PortableMigrations = {
  sqlite: ['CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL, at INTEGER NOT NULL)'],
  postgres: ['CREATE TABLE notes (id TEXT PRIMARY KEY, body JSONB NOT NULL, at BIGINT NOT NULL)'],
};

const until = async (condition: () => boolean, what: string): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describeWithSystemTools(['postgres', 'initdb'])('the host’s shared database on PostgreSQL', () => {
  const server = usePostgresServer();
  const opened: SharedDatabase[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
  });

  async function replica(url: string): Promise<SharedDatabase> {
    const database = await openSharedDatabase({ url, project: 'team', leaseMs: 60_000, maxConnections: 3 });
    opened.push(database);
    return database;
  }

  it('tells the other replicas of a change on a topic, never the writer itself nor other topics', async () => {
    const url = await server().freshDatabase('feed');
    const [first, second] = [await replica(url), await replica(url)];
    const [writer, reader] = [await first.openStore('notes', NOTES), await second.openStore('notes', NOTES)];
    const heard = { reader: 0, writer: 0, otherTopic: 0 };
    await reader.changes?.listen('notes:team', () => heard.reader++);
    await reader.changes?.listen('notes:other', () => heard.otherTopic++);
    await writer.changes?.listen('notes:team', () => heard.writer++);
    await writer.changes?.notify('notes:team');
    await until(() => heard.reader === 1, 'the other replica to hear the notice');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual({ reader: 1, writer: 0, otherTopic: 0 });
  });

  it('writes the database clock and reads JSON fields with the portable expressions', async () => {
    const url = await server().freshDatabase('expressions');
    const store = await (await replica(url)).openStore('notes', NOTES);
    const before = Date.now();
    await store.run(`INSERT INTO notes (id, body, at) VALUES (?, ?, ${store.expressions.nowMs})`, [
      'n1',
      JSON.stringify({ title: 'hello', size: 3 }),
    ]);
    const row = await store.get<{ at: number; title: string; size: string }>(
      `SELECT at, ${store.expressions.jsonField('body', 'title')} AS title,
         ${store.expressions.jsonField('body', 'size')} AS size FROM notes`,
    );
    expect(row?.title).toBe('hello');
    expect(Number(row?.size)).toBe(3);
    expect(typeof row?.at).toBe('number');
    // The test and the server share this machine's clock.
    expect(Math.abs((row?.at ?? 0) - before)).toBeLessThan(5_000);
    expect(() => store.expressions.jsonField('body', "title') OR ('1")).toThrow(/plain JSON key/);
  });

  it('takes a stopped replica for dead at once and a live one never', async () => {
    const url = await server().freshDatabase('lease');
    const [live, stopping] = [await replica(url), await replica(url)];
    const store = await live.openStore('notes', NOTES);
    const dead = (id: string) => {
      const condition = live.replica!.deadCondition('?');
      return store.get<{ dead: number }>(`SELECT (${condition.sql}) AS dead`, [id, ...condition.params]);
    };
    expect((await dead(stopping.replica!.id))?.dead).toBe(0);
    await stopping.close();
    expect((await dead(stopping.replica!.id))?.dead).toBe(1);
    expect((await dead(live.replica!.id))?.dead).toBe(0);
  });
});
