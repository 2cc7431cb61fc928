import path from 'node:path';
import type { Logger } from '@quiver/types';
import type { QuiverConfig } from '../config/config-schema.js';
import type { CreateHostOptions } from '../host-options.js';
import { CodeTrust } from '../trust/code-trust.js';
import {
  type InspectProjectOptions,
  inspectProject,
  type LocatedProject,
  locateProject,
  type ProjectInspection,
} from '../trust/inspect-project.js';
import { SharedTrustStorage, TRUST_MIGRATIONS } from '../trust/shared-trust-storage.js';
import { fileTrustStorage, type TrustStorage } from '../trust/trust-storage.js';
import { TrustedWorkspaceFiles } from '../trust/workspace-file-pins.js';
import type { PostgresBackendLoader } from './postgres-backend.js';
import {
  loadPostgresBackend,
  openSharedStorage,
  postgresUrlOf,
  type SharedStorage,
} from './shared-storage.js';
import { environmentVariableOf, storageProjectOf } from './storage-config.js';

export interface OpenedProject extends ProjectInspection {
  /** The configuration trust allows (`found` narrowed by it). */
  config: QuiverConfig;
  /** Its workspace (the trusted one). */
  hostWorkspace: string;
  sharedStorage: SharedStorage | undefined;
  trustStorage: TrustStorage;
  /** Checks plugins and stdio servers against the code trust pinned; undefined when the config is not a project file. */
  codeTrust: CodeTrust | undefined;
  /** The workspace files a person pinned, for the shell analyzer. */
  filePins: TrustedWorkspaceFiles;
}

/**
 * Reads the project's configuration and, when it keeps state in PostgreSQL, reads the trust
 * record every replica shares first: it decides what of the configuration applies.
 */
export async function openProject(options: CreateHostOptions, logger: Logger): Promise<OpenedProject> {
  const located = locateProject(options);
  const postgresTrust = await openPostgresTrust(located, options.environment, logger, {
    required: false,
    postgres: options.postgres,
  });
  try {
    const inspection = inspectProject(
      options.trust && postgresTrust
        ? { ...options, trust: { ...options.trust, records: postgresTrust } }
        : options,
      located,
    );
    const config = inspection.trust?.comparison.effective.config ?? inspection.found;
    const hostWorkspace = path.resolve(
      options.workspace ?? path.resolve(located.configDir, config.workspace),
    );
    const sharedStorage = await openSharedStorage(config.storage, {
      workspace: hostWorkspace,
      logger,
      ...(options.environment ? { environment: options.environment } : {}),
      ...(options.postgres ? { postgres: options.postgres } : {}),
    });
    const trustStorage = postgresTrust ?? fileTrustStorage(hostWorkspace, options.trust?.env);
    const trust = inspection.trust;
    // An inline config is the embedder's own code; a project file's plugins and servers run only as pinned.
    const codeTrust =
      trust?.code && inspection.configFile && (trust.basis === 'launch' || trust.basis === 'record')
        ? new CodeTrust(trust.code, {
            basis: trust.basis,
            workspace: inspection.workspace,
            baseDirs: inspection.searchDirs,
          })
        : undefined;
    // Workspace files (package.json, .npmrc, makefiles) count as pinned only by the persistent record
    // (`quiver trust`) and a person's grants, never by a launch: `--trust-project` would otherwise
    // pin, at the next launch, whatever the model planted during the last one.
    const filePins = new TrustedWorkspaceFiles({ storage: trustStorage });
    return { ...inspection, config, hostWorkspace, sharedStorage, trustStorage, codeTrust, filePins };
  } catch (error) {
    await postgresTrust?.close().catch(() => {});
    throw error;
  }
}

/**
 * The project's configuration compared with what is trusted, and where trust is kept, without
 * starting anything (what `quiver trust` and `quiver mcp review` work on). Close the storage.
 */
export async function openProjectTrust(
  options: InspectProjectOptions & {
    environment?: Readonly<Record<string, string | undefined>>;
    /** The PostgreSQL backend, loaded only when quiver.yaml keeps state there. */
    postgres?: PostgresBackendLoader;
  },
  logger: Logger,
): Promise<{ inspection: ProjectInspection; trustStorage: TrustStorage }> {
  const located = locateProject(options);
  const postgresTrust = await openPostgresTrust(located, options.environment, logger, {
    required: true,
    postgres: options.postgres,
  });
  const records = postgresTrust ?? fileTrustStorage(located.workspace, options.trust?.env);
  const inspection = inspectProject({ ...options, trust: { ...options.trust, records } }, located);
  return { inspection, trustStorage: records };
}

/**
 * The trust storage on PostgreSQL, on a connection pool of its own (a listening connection stays
 * open); undefined for SQLite. Without the URL variable: an error when `required`, else undefined
 * (opening the shared storage then fails with the message that says so).
 */
async function openPostgresTrust(
  located: LocatedProject,
  environment: Readonly<Record<string, string | undefined>> = process.env,
  logger: Logger,
  { required, postgres }: { required: boolean; postgres: PostgresBackendLoader | undefined },
): Promise<SharedTrustStorage | undefined> {
  const storage = located.found.storage;
  if (storage.kind !== 'postgres') return undefined;
  const variable = environmentVariableOf(storage.url) as string;
  if (!environment[variable] && !required) return undefined;
  const { url, source } = postgresUrlOf(
    storage,
    environment,
    'keeps trust records and MCP tool pins',
    (name) => `Set ${name} as it is set where the replicas run.`,
  );
  const project = storageProjectOf(storage, located.workspace, environment);
  const backend = await loadPostgresBackend(postgres);
  const database = await backend.openSharedDatabase({
    url,
    source,
    project,
    applicationName: 'quiver-trust',
    maxConnections: 3,
  });
  try {
    return await SharedTrustStorage.open({
      store: await database.openStore('trust', TRUST_MIGRATIONS),
      project,
      logger,
      workspace: located.workspace,
      onClose: () => database.close(),
    });
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
