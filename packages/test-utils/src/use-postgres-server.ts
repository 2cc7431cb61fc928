import { afterAll, beforeAll } from 'vitest';
import { startPostgresServer, type TestPostgresServer } from './postgres-server.js';

/**
 * Inside a describe: one PostgreSQL server for the block, started before its first test and
 * stopped after its last. Returns a getter, since the server exists only once the block runs.
 */
export function usePostgresServer(): () => TestPostgresServer {
  let server: TestPostgresServer | undefined;
  // initdb and a first start take tens of seconds on a loaded machine.
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined)
      throw new Error('The PostgreSQL server is not started: call it inside a test or hook.');
    return server;
  };
}
