import type { PoolDiagnostic, PoolTool, RemovalReason } from '../contracts.js';

export interface RemovedTool {
  name: string;
  reason: RemovalReason;
}

/** What every assembly stage returns: the tools that go on, and why the others stopped. */
export interface StageResult {
  kept: PoolTool[];
  removed: RemovedTool[];
  diagnostics: PoolDiagnostic[];
}
