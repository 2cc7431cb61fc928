// Public surface of @quiver/test-utils (private: Quiver's own tests only).

export type {
  StorageCallOptions,
  TestStorage,
  TestStorageBackend,
  TestStorageKind,
  TestStorageOptions,
  TestStorageParts,
} from './storage-context.js';
export {
  callToolInProcess,
  createTestStorage,
  memorySession,
  structuredOf,
  testStorageOver,
} from './storage-context.js';
export type { SystemToolName } from './system-tool-lookup.js';
export { findSystemTool, hasSystemTools, missingSystemTools, SYSTEM_TOOLS } from './system-tool-lookup.js';
export {
  describeWithSystemTools,
  itWithSystemTools,
  notRunLedgerDirectory,
  REQUIRE_SYSTEM_TOOLS_VARIABLE,
} from './system-tools.js';
export { usePostgresServer } from './use-postgres-server.js';
export { WorkerProcess } from './worker-process.js';
