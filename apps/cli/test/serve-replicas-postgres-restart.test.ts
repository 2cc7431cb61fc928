import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { serveWorkspace, textOf } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

const URL_VARIABLE = 'QUIVER_TEST_RESTART_DATABASE_URL';
const TEST_TIMEOUT_MS = 120_000;

describeWithSystemTools(['postgres', 'initdb'])('a PostgreSQL restart under load', () => {
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
    process.env.QUIVER_TEST_PROJECT = 'restart-app';
    const serve = await startHttpServe(workspace.dir);
    cleanups.push(() => serve.stop());
    return serve;
  }

  async function connect(serve: RunningHttpServe, name: string): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    cleanups.push(() => client.close());
    return client;
  }

  it(
    'keeps both replicas and the same MCP sessions serving, and keeps every acknowledged write',
    async () => {
      const url = await server().createDatabase('restart_under_load');
      const replicas = [await replica(url), await replica(url)];
      const clients = await Promise.all(
        [0, 1, 2].map((index) => connect(replicas[index % 2]!, `restart-client-${index}`)),
      );
      let restarted = false;
      let stop = false;
      const acknowledged: string[] = [];
      const failures: string[] = [];
      const callsAfterRestart = [0, 0, 0];
      const load = clients.map(async (client, index) => {
        for (let call = 0; !stop; call += 1) {
          const title = `client ${index} ticket ${call}`;
          const after = restarted;
          try {
            const result = await client.callTool({ name: 'kanban_create', arguments: { title } });
            if (result.isError) failures.push(textOf(result));
            else acknowledged.push(title);
          } catch (error) {
            failures.push(`thrown: ${(error as Error).message}`);
          }
          if (after) callsAfterRestart[index]! += 1;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await server().restart('fast');
      restarted = true;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      stop = true;
      await Promise.all(load);

      for (const serve of replicas) {
        expect(serve.child.exitCode, serve.stderr()).toBeNull();
        expect(serve.child.signalCode).toBeNull();
      }
      // A call in flight when its connection was lost answers storage_unavailable; nothing else fails.
      for (const failure of failures) expect(failure).toContain('storage_unavailable');
      expect(callsAfterRestart.every((count) => count > 0)).toBe(true);
      // The same sessions keep working once the server is back.
      for (const client of clients) {
        const listed = await client.callTool({ name: 'kanban_list', arguments: {} });
        expect(listed.isError, textOf(listed)).toBeFalsy();
      }
      const [schema] = await server().query<{ nspname: string }>(
        url,
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'quiver_kanban_%'",
      );
      const rows = await server().query<{ title: string }>(
        url,
        `SELECT title FROM "${schema!.nspname}".tickets`,
      );
      const stored = new Set(rows.map((row) => row.title));
      expect(acknowledged.filter((title) => !stored.has(title))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(10);

      // The session log kept what it was handed during the outage and wrote it after reconnecting.
      const logged = async () =>
        Number(
          (
            await server().query<{ n: string }>(
              url,
              "SELECT count(*) AS n FROM calls WHERE tool = 'kanban_create' AND status = 'ok'",
            )
          )[0]?.n,
        );
      const deadline = Date.now() + 10_000;
      while ((await logged()) < acknowledged.length && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await logged()).toBe(acknowledged.length);
    },
    TEST_TIMEOUT_MS,
  );
});
