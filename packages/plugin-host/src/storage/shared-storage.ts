import { PROJECT_GRANT_MIGRATIONS, ProjectGrantStore } from '@quiver/permissions';
import { SESSION_LOG_MIGRATIONS, SharedSessionEventLog } from '@quiver/runtime';
import { type CapabilityBackend, type Logger, QuiverError } from '@quiver/types';
import type { PostgresBackendLoader } from './postgres-backend.js';
import { SERVE_SESSION_MIGRATIONS, ServeSessionRecords } from './serve-session-records.js';
import { environmentVariableOf, type StorageConfig, storageProjectOf } from './storage-config.js';

/** Host-owned state every replica shares: opened once per host, closed with it. */
export interface SharedStorage {
  readonly kind: 'postgres';
  readonly replicaId: string;
  readonly projectGrants: ProjectGrantStore;
  readonly eventLog: SharedSessionEventLog;
  /** The `storage` capability plugins' tools get (kanban boards, memories): one schema per scope and name. */
  readonly storageBackend: CapabilityBackend<'storage'>;
  /** `quiver serve --http` sessions any replica can answer. */
  readonly serveSessions: ServeSessionRecords;
  close(): Promise<void>;
}

export interface SharedStorageContext {
  workspace: string;
  /** Where calls left running by dead replicas are reported. */
  logger: Logger;
  environment?: Readonly<Record<string, string | undefined>>;
  /** The PostgreSQL backend (the composition root's; wiring loads the driver only now). */
  postgres?: PostgresBackendLoader;
}

/** Marks the calls of dead replicas interrupted (never re-running them) and says so, once each. */
async function reportDeadReplicasCalls(eventLog: SharedSessionEventLog, logger: Logger): Promise<void> {
  for (const call of await eventLog.recoverDeadReplicas()) {
    logger.warn(
      `call ${call.callId} (${call.toolName}) of session ${call.sessionId} was interrupted: replica ${call.replica} stopped before it completed; it was not re-run.`,
      { ...call },
    );
  }
}

/** The URL of `config` from the environment, or the error that says which variable to set. */
export function postgresUrlOf(
  config: Extract<StorageConfig, { kind: 'postgres' }>,
  environment: Readonly<Record<string, string | undefined>>,
  what: string,
  fix: (variable: string) => string,
): { url: string; source: string } {
  const variable = environmentVariableOf(config.url) as string;
  const url = environment[variable];
  if (!url) {
    throw new QuiverError(
      'config_invalid',
      `quiver.yaml ${what} in PostgreSQL with the URL from \${${variable}}, but ${variable} is not set.`,
      { fix: fix(variable), details: { variable } },
    );
  }
  return { url, source: `the ${variable} environment variable` };
}

/** The backend, or the error that says this host cannot reach PostgreSQL at all. */
export async function loadPostgresBackend(loader: PostgresBackendLoader | undefined) {
  if (loader === undefined) {
    throw new QuiverError(
      'config_invalid',
      'quiver.yaml keeps state in PostgreSQL, but this host was created without a PostgreSQL backend.',
      {
        fix: "Create the host through @quiver/wiring (createQuiver), or pass postgres: () => import('@quiver/storage-postgres') to it.",
      },
    );
  }
  return loader();
}

/** Undefined for SQLite (the per-host default); for PostgreSQL, connects, migrates and joins the replicas. */
export async function openSharedStorage(
  config: StorageConfig,
  context: SharedStorageContext,
): Promise<SharedStorage | undefined> {
  if (config.kind !== 'postgres') return undefined;
  const { url, source } = postgresUrlOf(
    config,
    context.environment ?? process.env,
    'stores state',
    (variable) =>
      `Set ${variable} to postgres://USER:PASSWORD@HOST:5432/DATABASE where Quiver runs, or remove storage from quiver.yaml to use SQLite.`,
  );
  const project = storageProjectOf(config, context.workspace, context.environment);
  const backend = await loadPostgresBackend(context.postgres);
  const database = await backend.openSharedDatabase({
    url,
    source,
    project,
    leaseMs: config.leaseSeconds * 1_000,
  });
  try {
    const replica = database.replica;
    if (replica === undefined) throw new Error('The shared database was opened without a replica lease.');
    const projectGrants = new ProjectGrantStore({
      store: await database.openStore('permissions', PROJECT_GRANT_MIGRATIONS),
      project,
    });
    const eventLog = new SharedSessionEventLog({
      store: await database.openStore('session-log', SESSION_LOG_MIGRATIONS),
      replica,
    });
    const storageBackend = await database.openStorageBackend();
    const serveSessions = new ServeSessionRecords({
      store: await database.openStore('serve-sessions', SERVE_SESSION_MIGRATIONS),
      project,
    });
    const sweep = () => reportDeadReplicasCalls(eventLog, context.logger).catch(() => {});
    await sweep();
    const sweeper = setInterval(sweep, replica.leaseMs);
    sweeper.unref();
    let closed = false;
    return {
      kind: 'postgres',
      replicaId: replica.id,
      projectGrants,
      eventLog,
      storageBackend,
      serveSessions,
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(sweeper);
        await eventLog.flushed();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
