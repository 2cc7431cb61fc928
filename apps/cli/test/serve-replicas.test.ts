import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it, vi } from 'vitest';
import { quiver } from './helpers.js';
import { serveWorkspace, textOf } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

const URL_VARIABLE = 'QUIVER_TEST_REPLICAS_DATABASE_URL';

describeWithSystemTools(['postgres', 'initdb'])('two quiver serve --http replicas on one PostgreSQL', () => {
  const server = usePostgresServer();
  const cleanups: Array<() => Promise<void> | void> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    delete process.env[URL_VARIABLE];
    delete process.env.QUIVER_TEST_PROJECT;
  });

  /** A replica: its own workspace copy (as a container would have) with storage on the shared database. */
  async function replica(databaseUrl: string): Promise<{ serve: RunningHttpServe; dir: string }> {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    writeFileSync(
      path.join(workspace.dir, 'quiver.yaml'),
      `plugins:\n  - ./workbench\ndefaultPersonality: dev\nstorage:\n  kind: postgres\n  url: \${${URL_VARIABLE}}\n  project: \${QUIVER_TEST_PROJECT}\n  leaseSeconds: 1\n`,
    );
    process.env[URL_VARIABLE] = databaseUrl;
    process.env.QUIVER_TEST_PROJECT = 'team-app';
    const serve = await startHttpServe(workspace.dir);
    cleanups.push(() => serve.stop());
    return { serve, dir: workspace.dir };
  }

  async function connect(serve: RunningHttpServe, answer?: string): Promise<Client> {
    const client = new Client(
      { name: 'replica-test', version: '1.0.0' },
      answer ? { capabilities: { elicitation: { form: {} } } } : {},
    );
    if (answer)
      client.setRequestHandler('elicitation/create', () => ({
        action: 'accept',
        content: { decision: answer },
      }));
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    cleanups.push(() => client.close());
    return client;
  }

  it('honours on one replica an "always allow" given through the other', async () => {
    const url = await server().freshDatabase('replicas');
    const first = await replica(url);
    const second = await replica(url);
    const headless = await connect(second.serve);
    const command = { name: 'terminal', arguments: { command: 'touch granted' } };

    const before = await headless.callTool(command);
    expect(textOf(before)).toContain('[not_permitted]');
    expect(existsSync(path.join(second.dir, 'granted'))).toBe(false);

    const asking = await connect(first.serve, 'project');
    expect((await asking.callTool(command)).isError).toBeFalsy();
    expect(existsSync(path.join(first.dir, 'granted'))).toBe(true);

    const after = await headless.callTool(command);
    expect(after.isError).toBeFalsy();
    expect(existsSync(path.join(second.dir, 'granted'))).toBe(true);

    // `quiver permit` on a replica explains the decision from the same shared grants.
    const permit = await quiver(
      ['--trust-project', 'permit', 'terminal', '--args', JSON.stringify(command.arguments), '--json'],
      { cwd: second.dir },
    );
    expect(JSON.parse(permit.stdout)).toMatchObject({ behavior: 'allow' });
  });

  it('reports on the surviving replica the call a killed replica left running, marked interrupted and not re-run', async () => {
    const url = await server().freshDatabase('replicas');
    const doomed = await replica(url);
    const survivor = await replica(url);
    const client = await connect(doomed.serve);
    const marker = path.join(doomed.dir, 'stopped-waiting');
    void client.callTool({ name: 'wait_for_abort', arguments: { marker } }).catch(() => {});
    const running = await vi.waitFor(
      async () => {
        const rows = await server().query<{ call_id: string }>(
          url,
          "SELECT call_id FROM calls WHERE tool = 'wait_for_abort' AND status = 'running'",
        );
        expect(rows).toHaveLength(1);
        return rows[0]!.call_id;
      },
      { timeout: 10_000, interval: 50 },
    );

    await doomed.serve.stop();
    await vi.waitFor(() => expect(survivor.serve.stderr()).toContain(`call ${running} (wait_for_abort)`), {
      timeout: 10_000,
      interval: 100,
    });
    expect(survivor.serve.stderr()).toContain('was interrupted');
    const rows = await server().query(url, 'SELECT status, code FROM calls WHERE call_id = $1', [running]);
    expect(rows).toEqual([{ status: 'interrupted', code: 'interrupted' }]);
    expect(existsSync(marker)).toBe(false);
    // Reported once: later sweeps find nothing more to recover.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(survivor.serve.stderr().split(`call ${running} `).length - 1).toBe(1);
  });
});
