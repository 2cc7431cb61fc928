import type { CodePins } from './code-pins.js';
import type { FilePins } from './file-pins.js';
import {
  approveMcpToolDefinition,
  type McpToolPinFile,
  type McpToolPinStore,
  mcpToolPinsPath,
  openMcpToolPins,
  readMcpToolPins,
} from './mcp-tool-pins.js';
import type { ProjectConfiguration } from './project-configuration.js';
import {
  addTrustRecordFiles,
  readTrustRecord,
  type TrustRecord,
  trustRecordPath,
  writeTrustRecord,
} from './trust-store.js';

/** A reviewed change of a pinned definition: which tool, and the hash a person saw. */
export interface McpToolDefinitionApproval {
  server: string;
  tool: string;
  hash: string;
}

/**
 * Where a project's trust record and its pinned MCP tool definitions are kept: files in the
 * user's data directory (one host), or PostgreSQL (every replica of the project). Reads answer
 * synchronously from what the store holds, so trust can be evaluated without waiting.
 */
export interface TrustStorage {
  readonly kind: 'files' | 'postgres';
  /** Where the trust record lives, for messages; undefined when no record can be kept. */
  readonly recordLocation: string | undefined;
  /** Where the pins live, for messages. */
  readonly pinsLocation: string;
  /** The trust record; undefined when there is none or it cannot be trusted (fail closed). */
  record(): TrustRecord | undefined;
  /**
   * Calls `onChange` when another process changed the record; returns the stop. Only where the
   * record is not a file a caller can watch itself (PostgreSQL).
   */
  watchRecord?(onChange: () => void): () => void;
  /** Records `configuration` (and the code it starts, pinned) as trusted; returns where it was recorded. */
  writeRecord(
    configuration: ProjectConfiguration,
    options?: { configFile?: string | undefined; code?: CodePins | undefined },
  ): Promise<string>;
  /** Adds workspace file pins to the record; false when there is no record (nothing was trusted). */
  pinFiles(files: FilePins): Promise<boolean>;
  /** The store the MCP bridge pins definitions in. */
  pinStore(): McpToolPinStore;
  /** Every pin and pending change, read afresh; undefined when they cannot be read (every server tool is then withheld). */
  readPins(): Promise<McpToolPinFile | undefined>;
  /** Pins the pending definition a person reviewed; false when it is no longer the pending one. */
  approve(change: McpToolDefinitionApproval): Promise<boolean>;
  close(): Promise<void>;
}

/** The file-based store of one workspace, under `$XDG_DATA_HOME/quiver`. */
export function fileTrustStorage(workspace: string, env: NodeJS.ProcessEnv = process.env): TrustStorage {
  let recordLocation: string | undefined;
  try {
    recordLocation = trustRecordPath(workspace, env);
  } catch {
    // A trust directory inside the workspace is never read; trust then comes only from the launch.
  }
  return {
    kind: 'files',
    recordLocation,
    get pinsLocation() {
      return mcpToolPinsPath(workspace, env);
    },
    record: () => (recordLocation === undefined ? undefined : readTrustRecord(workspace, env)),
    writeRecord: async (configuration, options = {}) =>
      writeTrustRecord(workspace, configuration, { env, configFile: options.configFile, code: options.code }),
    pinFiles: async (files) => recordLocation !== undefined && addTrustRecordFiles(workspace, files, env),
    pinStore: () => openMcpToolPins(workspace, env),
    readPins: async () => readMcpToolPins(workspace, env),
    approve: async (change) => approveMcpToolDefinition(workspace, change, env),
    close: async () => {},
  };
}
