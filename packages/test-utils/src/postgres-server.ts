import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findSystemTool } from './system-tool-lookup.js';

const run = promisify(execFile);

/** A throwaway PostgreSQL server on a loopback port, in a temporary data directory. */
export interface TestPostgresServer {
  readonly port: number;
  /** `postgres://quiver@127.0.0.1:<port>/postgres` (trust authentication: any password is accepted). */
  readonly url: string;
  /** Creates a fresh database and returns its URL, so each test starts from an empty schema. */
  createDatabase(name: string): Promise<string>;
  /** `createDatabase` under a name of its own: `<prefix>_<n>`, counted per server. */
  freshDatabase(prefix: string): Promise<string>;
  /** Runs one statement on a database of this server (a URL from `createDatabase`) and returns its rows. */
  query<Row = Record<string, unknown>>(
    databaseUrl: string,
    sql: string,
    parameters?: unknown[],
  ): Promise<Row[]>;
  /**
   * Restarts the server on the same port and data: `fast` terminates every connection
   * (`57P01`), as an operator's restart or a failover does. Resolves once it accepts connections.
   */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server (connections are terminated, new ones refused) and keeps its data, until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the server at once and removes its directory. */
  stop(): Promise<void>;
}

const SUPERUSER = 'quiver';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** initdb and postgres refuse to run as root: as root, they run as the `postgres` user. */
function asServerUser(program: string, args: string[]): [string, string[]] {
  const path = findSystemTool(program) ?? program;
  if (userInfo().uid !== 0) return [path, args];
  return ['runuser', ['-u', 'postgres', '--', path, ...args]];
}

async function runAsServerUser(program: string, args: string[]): Promise<void> {
  const [command, argv] = asServerUser(program, args);
  try {
    await run(command, argv, { timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${program} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`);
  }
}

/**
 * Starts PostgreSQL (needs `initdb`, `pg_ctl` and `postgres` on PATH; gate tests with
 * `describeWithSystemTools(['postgres', 'initdb'])`). fsync is off: the tests check behaviour
 * across processes, not durability across power loss.
 */
export async function startPostgresServer(): Promise<TestPostgresServer> {
  const directory = mkdtempSync(join(tmpdir(), 'quiver-postgres-'));
  if (userInfo().uid === 0) {
    const ids = await run('id', ['-u', 'postgres']).then(async ({ stdout }) => ({
      uid: Number(stdout.trim()),
      gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
    }));
    chownSync(directory, ids.uid, ids.gid);
  }
  const data = join(directory, 'data');
  const port = await freePort();
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  try {
    await runAsServerUser('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await runAsServerUser('pg_ctl', [
      'start',
      '-w',
      '-D',
      data,
      '-l',
      join(directory, 'server.log'),
      '-o',
      options,
    ]);
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  let stopped = false;
  let databases = 0;
  const server: TestPostgresServer = {
    port,
    url,
    async createDatabase(name: string): Promise<string> {
      if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://${SUPERUSER}@127.0.0.1:${port}/${name}`;
    },
    freshDatabase(prefix: string): Promise<string> {
      databases += 1;
      return server.createDatabase(`${prefix}_${databases}`);
    },
    async query<Row>(databaseUrl: string, sql: string, parameters: unknown[] = []): Promise<Row[]> {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(sql, parameters)).rows as Row[];
      } finally {
        await client.end();
      }
    },
    async restart(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
      await runAsServerUser('pg_ctl', [
        'restart',
        '-w',
        '-m',
        mode,
        '-D',
        data,
        '-l',
        join(directory, 'server.log'),
        '-o',
        options,
      ]);
    },
    async pause(): Promise<void> {
      await runAsServerUser('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data]);
    },
    async resume(): Promise<void> {
      await runAsServerUser('pg_ctl', [
        'start',
        '-w',
        '-D',
        data,
        '-l',
        join(directory, 'server.log'),
        '-o',
        options,
      ]);
    },
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      try {
        await runAsServerUser('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
  return server;
}
