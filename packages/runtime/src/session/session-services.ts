import type { SessionState } from '@quiver/types';
import type { CallExecutor, CallExecutorOptions } from '../lifecycle/executor.js';

/** What a session is built with beyond its personality's deps: the host's DI builds them per session. */
export interface SessionServices {
  state?: SessionState & { dispose(): Promise<void> };
  /** Builds the session's call executor (again when its permissions change). */
  createExecutor?: (options: CallExecutorOptions) => CallExecutor;
}
