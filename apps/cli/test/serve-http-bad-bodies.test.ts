import path from 'node:path';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { tempDirs, write } from './helpers.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

const URL_VARIABLE = 'QUIVER_TEST_BAD_BODIES_DATABASE_URL';

/** A POST without a session, as a client would send it: status and JSON-RPC error code of the answer. */
async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; code: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const answer = (await response.json()) as { error?: { code?: unknown } };
  return { status: response.status, code: answer.error?.code };
}

describeWithSystemTools(['postgres', 'initdb'])(
  'quiver serve --http answers bodies that are not JSON or too large the same way on either storage',
  { timeout: 120_000 },
  () => {
    const server = usePostgresServer();
    const dirs = tempDirs('quiver-http-bad-bodies-');
    const servers: RunningHttpServe[] = [];
    afterEach(async () => {
      for (const serve of servers.splice(0)) await serve.stop();
      dirs.cleanup();
      delete process.env[URL_VARIABLE];
      delete process.env.QUIVER_TEST_PROJECT;
    });
    const serve = async (storage: string[]) => {
      const dir = dirs.make();
      write(path.join(dir, 'quiver.yaml'), ['defaultPersonality: dev', ...storage, ''].join('\n'));
      write(path.join(dir, 'personalities/dev.yaml'), 'id: dev\nplugins: [tools-code]\n');
      const running = await startHttpServe(dir);
      servers.push(running);
      return running.url;
    };

    it('400 with -32700 for a body that is not JSON, 413 for one over 4 MiB, 400 with -32600 for one nested 5,000 levels deep, with SQLite and with PostgreSQL', async () => {
      process.env[URL_VARIABLE] = await server().freshDatabase('bad_bodies');
      process.env.QUIVER_TEST_PROJECT = 'bad-bodies';
      const sqlite = await serve([]);
      const postgres = await serve([
        'storage:',
        '  kind: postgres',
        `  url: \${${URL_VARIABLE}}`,
        `  project: \${QUIVER_TEST_PROJECT}`,
      ]);
      const tooLarge = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { pad: 'x'.repeat(5 * 1024 * 1024) },
      });
      for (const url of [sqlite, postgres]) {
        expect(await post(url, '{"jsonrpc":"2.0","id":1,')).toEqual({ status: 400, code: -32700 });
        // Deeper than the SDK's validators can recurse: refused as bad input, not a 500.
        const deep = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${'['.repeat(5000)}${']'.repeat(5000)}}`;
        expect(await post(url, deep)).toEqual({ status: 400, code: -32600 });
        expect(await post(url, deep, { 'mcp-protocol-version': '2026-07-28' })).toEqual({
          status: 400,
          code: -32600,
        });
        // Last: the server closes a connection whose body it did not read, which the client may reuse.
        expect(await post(url, tooLarge)).toEqual({ status: 413, code: -32000 });
      }
    });
  },
);
