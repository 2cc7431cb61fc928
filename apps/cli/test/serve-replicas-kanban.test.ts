import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { serveWorkspace, textOf } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

const URL_VARIABLE = 'QUIVER_TEST_KANBAN_REPLICAS_DATABASE_URL';
// Two serve processes and a hundred calls: generous for a machine many times slower than usual.
const REPLICA_TEST_TIMEOUT_MS = 240_000;

describeWithSystemTools(['postgres', 'initdb'])('one kanban board on two quiver serve replicas', () => {
  const server = usePostgresServer();
  const cleanups: Array<() => Promise<void> | void> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    delete process.env[URL_VARIABLE];
    delete process.env.QUIVER_TEST_PROJECT;
  });

  async function replica(databaseUrl: string): Promise<RunningHttpServe> {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    writeFileSync(
      path.join(workspace.dir, 'quiver.yaml'),
      `defaultPersonality: planner\nstorage:\n  kind: postgres\n  url: \${${URL_VARIABLE}}\n  project: \${QUIVER_TEST_PROJECT}\n`,
    );
    writeFileSync(
      path.join(workspace.dir, 'personalities/planner.yaml'),
      'id: planner\nplugins: [tools-kanban]\npermissions:\n  allow: [kanban_*]\n',
    );
    process.env[URL_VARIABLE] = databaseUrl;
    process.env.QUIVER_TEST_PROJECT = 'team-app';
    const serve = await startHttpServe(workspace.dir);
    cleanups.push(() => serve.stop());
    return serve;
  }

  async function connect(serve: RunningHttpServe): Promise<Client> {
    const client = new Client({ name: 'kanban-replica-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    cleanups.push(() => client.close());
    return client;
  }

  async function storedTicket(url: string): Promise<{ version: number; labels: string[]; status: string }> {
    const [schema] = await server().query<{ nspname: string }>(
      url,
      "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'quiver_kanban_%'",
    );
    const [row] = await server().query<{ version: number; labels: string; status: string }>(
      url,
      `SELECT version, labels, status FROM "${schema!.nspname}".tickets`,
    );
    return { version: row!.version, labels: JSON.parse(row!.labels) as string[], status: row!.status };
  }

  it(
    'loses no update when both replicas edit one ticket, and refuses the move decided on a stale version',
    async () => {
      const url = await server().createDatabase('kanban_replicas');
      const clients = [await connect(await replica(url)), await connect(await replica(url))];
      const created = await clients[0]!.callTool({
        name: 'kanban_create',
        arguments: { title: 'Shared ticket' },
      });
      expect(created.isError, textOf(created)).toBeFalsy();
      const id = Number(/#(\d+)/.exec(textOf(created))?.[1]);
      const seen = await clients[1]!.callTool({ name: 'kanban_get', arguments: { id } });
      expect(textOf(seen)).toContain('Shared ticket');

      const edits = 20;
      const names = ['a', 'b'];
      const failures = await Promise.all(
        clients.map(async (client, index) => {
          const failed: string[] = [];
          for (let edit = 0; edit < edits; edit += 1) {
            const result = await client.callTool({
              name: 'kanban_update',
              arguments: { id, addLabels: [`${names[index]}-${edit}`] },
            });
            if (result.isError) failed.push(textOf(result));
          }
          return failed;
        }),
      );
      expect(failures).toEqual([[], []]);
      const edited = await storedTicket(url);
      expect(edited.version).toBe(1 + 2 * edits);
      expect(new Set(edited.labels)).toEqual(
        new Set(names.flatMap((name) => Array.from({ length: edits }, (_, edit) => `${name}-${edit}`))),
      );

      const targets = ['in_progress', 'blocked'];
      const moves = await Promise.all(
        clients.map((client, index) =>
          client.callTool({
            name: 'kanban_move',
            arguments: { id, version: edited.version, status: targets[index] },
          }),
        ),
      );
      const won = targets.filter((_, index) => !moves[index]!.isError);
      expect(won).toHaveLength(1);
      const refused = textOf(moves.find((result) => result.isError)!);
      expect(refused).toContain('stale_write');
      expect(refused).toContain(`version ${edited.version + 1}, not ${edited.version}`);
      expect(refused).toContain(`is now ${won[0]}`);
      expect(await storedTicket(url)).toMatchObject({ status: won[0], version: edited.version + 1 });
    },
    REPLICA_TEST_TIMEOUT_MS,
  );
});
