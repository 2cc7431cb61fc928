import { PROJECT_GRANT_MIGRATIONS, ProjectGrantStore } from '@quiver/permissions';
import { PostgresSessionEventLog } from '@quiver/runtime';
import {
  connectPostgres,
  openPostgresHostStore,
  openPostgresStorageBackend,
  type PostgresStorageBackend,
  ReplicaLease,
} from '@quiver/storage-postgres';
import { type Logger, QuiverError } from '@quiver/types';
import type pg from 'pg';
import { PostgresServeSessionRecords } from './serve-session-records.js';
import { environmentVariableOf, type StorageConfig, storageProjectOf } from './storage-config.js';

/** Host-owned state every replica shares: opened once per host, closed with it. */
export interface SharedStorage {
  readonly kind: 'postgres';
  readonly replicaId: string;
  readonly projectGrants: ProjectGrantStore;
  readonly eventLog: PostgresSessionEventLog;
  /** The `storage` capability plugins' tools get (kanban boards, memories): one schema per scope and name. */
  readonly storageBackend: PostgresStorageBackend;
  /** `quiver serve --http` sessions any replica can answer. */
  readonly serveSessions: PostgresServeSessionRecords;
  close(): Promise<void>;
}

export interface SharedStorageContext {
  workspace: string;
  /** Where calls left running by dead replicas are reported. */
  logger: Logger;
  environment?: Readonly<Record<string, string | undefined>>;
}

/** Marks the calls of dead replicas interrupted (never re-running them) and says so, once each. */
async function reportDeadReplicasCalls(eventLog: PostgresSessionEventLog, logger: Logger): Promise<void> {
  for (const call of await eventLog.recoverDeadReplicas()) {
    logger.warn(
      `call ${call.callId} (${call.toolName}) of session ${call.sessionId} was interrupted: replica ${call.replica} stopped before it completed; it was not re-run.`,
      { ...call },
    );
  }
}

/** Undefined for SQLite (the per-host default); for PostgreSQL, connects, migrates and joins the replicas. */
export async function openSharedStorage(
  config: StorageConfig,
  context: SharedStorageContext,
): Promise<SharedStorage | undefined> {
  if (config.kind !== 'postgres') return undefined;
  const variable = environmentVariableOf(config.url) as string;
  const url = (context.environment ?? process.env)[variable];
  if (!url) {
    throw new QuiverError(
      'config_invalid',
      `quiver.yaml stores state in PostgreSQL with the URL from \${${variable}}, but ${variable} is not set.`,
      {
        fix: `Set ${variable} to postgres://USER:PASSWORD@HOST:5432/DATABASE where Quiver runs, or remove storage from quiver.yaml to use SQLite.`,
        details: { variable },
      },
    );
  }
  const project = storageProjectOf(config, context.workspace, context.environment);
  const pool: pg.Pool = await connectPostgres({ url, source: `the ${variable} environment variable` });
  let opened: PostgresStorageBackend | undefined;
  try {
    const lease = await ReplicaLease.start(pool, { leaseMs: config.leaseSeconds * 1_000 });
    const projectGrants = new ProjectGrantStore({
      store: await openPostgresHostStore(pool, 'permissions', PROJECT_GRANT_MIGRATIONS),
      project,
    });
    const eventLog = await PostgresSessionEventLog.open({ pool, lease });
    const storageBackend = await openPostgresStorageBackend({
      url,
      source: `the ${variable} environment variable`,
      project,
    });
    opened = storageBackend;
    const serveSessions = await PostgresServeSessionRecords.open({
      pool,
      project,
    });
    const sweep = () => reportDeadReplicasCalls(eventLog, context.logger).catch(() => {});
    await sweep();
    const sweeper = setInterval(sweep, lease.leaseMs);
    sweeper.unref();
    let closed = false;
    return {
      kind: 'postgres',
      replicaId: lease.id,
      projectGrants,
      eventLog,
      storageBackend,
      serveSessions,
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(sweeper);
        await eventLog.flushed();
        await lease.stop().catch(() => {});
        await storageBackend.close();
        await pool.end();
      },
    };
  } catch (error) {
    await opened?.close().catch(() => {});
    await pool.end().catch(() => {});
    throw error;
  }
}
