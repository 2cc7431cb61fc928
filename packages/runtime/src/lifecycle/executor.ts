import type {
  AgentIdentity,
  EventBus,
  PermissionResolver,
  PermissionRules,
  SessionState,
  ToolCall,
  ToolResult,
} from '@quiver/types';
import type { ExecuteCallsOptions, SessionDeps, SessionEventLog, ToolPool } from '../contracts.js';

/** What a session hands the execution lifecycle. */
export interface CallExecutorOptions {
  sessionId: string;
  deps: SessionDeps;
  state: SessionState;
  /** The session's bus; every lifecycle event is published here. */
  events: EventBus;
  agent: AgentIdentity;
  /** Effective rules: personality, then session options. */
  permissions: PermissionRules;
  /** Deny rules inherited from parent sessions; they bound this session. */
  parentDenies: string[];
  resolver?: PermissionResolver;
  log?: SessionEventLog;
}

export interface CallExecutor {
  /** Runs calls against the pool; never throws; results in input order. */
  execute(calls: readonly ToolCall[], pool: ToolPool, options?: ExecuteCallsOptions): Promise<ToolResult[]>;
  /** Aborts every call of a turn (all turns when omitted); each completes with `aborted`. */
  abort(reason?: string, turn?: number): void;
  dispose(): Promise<void>;
}

// Placeholder with the final signature; the lifecycle implementation replaces the body.
export function createCallExecutor(_options: CallExecutorOptions): CallExecutor {
  throw new Error('createCallExecutor: not implemented yet');
}
