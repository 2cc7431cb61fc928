import { createServer } from 'node:net';
import { isQuiverError } from '@quiver/types';
import { expect, it } from 'vitest';
import { connectPostgres } from '../src/connect-postgres.js';

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

it('names the unreachable URL without its password and says what to check', async () => {
  const port = await closedPort();
  const url = `postgres://quiver:s3cret-passw0rd@127.0.0.1:${port}/quiver`;
  const error = await connectPostgres({ url, source: 'the QUIVER_DATABASE_URL environment variable' }).catch(
    (caught: unknown) => caught,
  );
  expect(isQuiverError(error)).toBe(true);
  const described = (error as { describe(): string }).describe();
  expect(described).toContain(`postgres://quiver:***@127.0.0.1:${port}/quiver`);
  expect(described).toContain('ECONNREFUSED');
  expect(described).toContain('QUIVER_DATABASE_URL');
  expect(described).not.toContain('s3cret-passw0rd');
  expect(JSON.stringify((error as { details: unknown }).details)).not.toContain('s3cret-passw0rd');
});

it('refuses a storage URL that is not a postgres URL before connecting, without echoing it', async () => {
  const error = await connectPostgres({ url: 'mysql://root:hunter2@db/quiver' }).catch(
    (caught: unknown) => caught,
  );
  expect(error).toMatchObject({ code: 'config_invalid' });
  expect((error as Error).message).toContain('mysql://root:***@db/quiver');
  expect((error as Error).message).not.toContain('hunter2');
});
