import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { hostileFetchNotesCalls, hostileServerYaml } from '@quiver/test-utils/hostile-mcp-server';
import { afterEach, expect, it, vi } from 'vitest';
import { tempDir, write } from './helpers.js';
import { serveWorkspace, textOf } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

const URL_VARIABLE = 'QUIVER_TEST_STATELESS_DATABASE_URL';
const PATIENT = { timeout: 120_000 };
const FETCH_NOTES = 'mcp__hostile__fetch_notes';

interface Routed {
  replica: 'first' | 'second';
  httpMethod: string;
  rpcMethod: string | undefined;
  sessionId: string | null;
}

describeWithSystemTools(['postgres', 'initdb'])(
  'an MCP session whose requests alternate between two quiver serve --http replicas',
  { timeout: 300_000 },
  () => {
    const server = usePostgresServer();
    const cleanups: Array<() => Promise<void> | void> = [];

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      delete process.env[URL_VARIABLE];
      delete process.env.QUIVER_TEST_PROJECT;
    });

    /** A replica with its own workspace copy; its bridged MCP server's tools are deferred behind tool_search. */
    async function replica(databaseUrl: string, state: string): Promise<RunningHttpServe> {
      const workspace = serveWorkspace();
      cleanups.push(workspace.cleanup);
      write(
        path.join(workspace.dir, 'quiver.yaml'),
        [
          'plugins:',
          '  - ./workbench',
          'defaultPersonality: dev',
          ...hostileServerYaml(state),
          'storage:',
          '  kind: postgres',
          `  url: \${${URL_VARIABLE}}`,
          `  project: \${QUIVER_TEST_PROJECT}`,
          '',
        ].join('\n'),
      );
      write(
        path.join(workspace.dir, 'personalities/dev.yaml'),
        [
          'id: dev',
          'plugins: [workbench, mcp-bridge]',
          'mcpServers:',
          '  hostile: true',
          'deferLoading:',
          '  enabled: true',
          '  maxTools: 1',
          'permissions:',
          `  allow: [count_slowly, tool_search, 'mcp__hostile__*']`,
          '',
        ].join('\n'),
      );
      process.env[URL_VARIABLE] = databaseUrl;
      process.env.QUIVER_TEST_PROJECT = 'stateless-app';
      const serve = await startHttpServe(workspace.dir);
      cleanups.push(() => serve.stop());
      return serve;
    }

    async function untilBridged(serve: RunningHttpServe): Promise<void> {
      const client = new Client({ name: 'readiness', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(serve.url));
      await client.connect(transport);
      try {
        await vi.waitFor(
          async () => {
            const result = await client.callTool(
              { name: 'tool_search', arguments: { query: `/^${FETCH_NOTES}$/` } },
              PATIENT,
            );
            expect(textOf(result)).toContain(FETCH_NOTES);
          },
          { timeout: 120_000, interval: 250 },
        );
      } finally {
        await transport.terminateSession().catch(() => {});
        await client.close();
      }
    }

    /** Sends each POST or DELETE to the other replica than the one before; a GET stream stays on the first. */
    function alternatingFetch(first: RunningHttpServe, second: RunningHttpServe, routed: Routed[]) {
      let next: 'first' | 'second' = 'first';
      return async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const httpMethod = init?.method ?? 'GET';
        const replica = httpMethod === 'GET' ? 'first' : next;
        if (httpMethod !== 'GET') next = next === 'first' ? 'second' : 'first';
        const body =
          typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
        const sessionId = new Headers(init?.headers).get('mcp-session-id');
        routed.push({ replica, httpMethod, rpcMethod: body?.method, sessionId });
        return fetch(replica === 'first' ? first.url : second.url, init);
      };
    }

    it('answers every request on either replica, tools tool_search revealed included, until a DELETE ends it on both', async () => {
      const url = await server().freshDatabase('stateless');
      const { dir: state, cleanup } = tempDir('quiver-stateless-hostile-');
      cleanups.push(cleanup);
      const first = await replica(url, state);
      const second = await replica(url, state);
      await Promise.all([untilBridged(first), untilBridged(second)]);

      const routed: Routed[] = [];
      const client = new Client({ name: 'alternating', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(first.url), {
        fetch: alternatingFetch(first, second, routed),
      });
      await client.connect(transport);
      cleanups.push(() => client.close());
      const sessionId = transport.sessionId as string;
      const replicaOf = (rpcMethod: string) =>
        routed.filter((entry) => entry.rpcMethod === rpcMethod).map((entry) => entry.replica);
      expect(replicaOf('initialize')).toEqual(['first']);

      await client.ping(PATIENT);
      const listed = await client.listTools(undefined, PATIENT);
      expect(replicaOf('tools/list')).toEqual(['second']);
      expect(listed.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['count_slowly', 'tool_search']),
      );
      expect(listed.tools.map((tool) => tool.name)).not.toContain(FETCH_NOTES);

      await client.ping(PATIENT);
      const counted = await client.callTool({ name: 'count_slowly', arguments: { steps: 2 } }, PATIENT);
      expect(textOf(counted)).toContain('counted to 2');
      expect(replicaOf('tools/call')).toEqual(['second']);

      const search = await client.callTool(
        { name: 'tool_search', arguments: { query: 'fetch notes' } },
        PATIENT,
      );
      expect(textOf(search)).toContain(FETCH_NOTES);
      const relisted = await client.listTools(undefined, PATIENT);
      expect(replicaOf('tools/list')).toEqual(['second', 'second']);
      expect(replicaOf('tools/call')).toEqual(['second', 'first']);
      expect(relisted.tools.map((tool) => tool.name)).toContain(FETCH_NOTES);

      await client.ping(PATIENT);
      const notes = await client.callTool({ name: FETCH_NOTES, arguments: { topic: 'replicas' } }, PATIENT);
      expect(replicaOf('tools/call')).toEqual(['second', 'first', 'second']);
      expect(textOf(notes)).toContain('notes about replicas');
      expect(hostileFetchNotesCalls(state)).toContainEqual({ topic: 'replicas' });

      // Both replicas wrote the calls of this MCP session under one Quiver session.
      const sessions = await server().query<{ session_id: string }>(
        url,
        "SELECT DISTINCT session_id FROM calls WHERE tool IN ('count_slowly', 'mcp__hostile__fetch_notes')",
      );
      expect(sessions).toHaveLength(1);

      // An answer to a question no replica asked here (elicitations stay with the replica that asked).
      const stray = await fetch(second.url, {
        method: 'POST',
        headers: sessionHeaders(sessionId, transport.protocolVersion),
        body: JSON.stringify({ jsonrpc: '2.0', id: 41, result: { action: 'accept', content: {} } }),
      });
      expect(stray.status).toBe(409);
      expect(await stray.text()).toContain('must reach the replica that asked it');

      await transport.terminateSession();
      expect(routed.at(-1)).toMatchObject({ httpMethod: 'DELETE', sessionId });
      for (const serve of [first, second]) {
        const answer = await fetch(serve.url, {
          method: 'POST',
          headers: sessionHeaders(sessionId, transport.protocolVersion),
          body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
        });
        expect(answer.status).toBe(404);
        expect(await answer.text()).toContain('Session not found');
      }
    });
  },
);

function sessionHeaders(sessionId: string, protocolVersion: string | undefined): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': sessionId,
    'mcp-protocol-version': protocolVersion ?? '2025-11-25',
  };
}
