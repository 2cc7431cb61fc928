import { InMemorySessionState } from '@quiver/core';
import {
  type CallExecutor,
  type CallExecutorOptions,
  createCallExecutor,
  createSession,
  type Session,
  type SessionDeps,
  type SessionOptions,
} from '@quiver/runtime';
import type { ServiceDescriptor } from '../scopes.js';
import { TOKENS } from '../tokens.js';

/** Builds one session's call executor, again when the session's permissions change. */
export class SessionCallExecutors {
  #current: CallExecutor | undefined;

  /** The executor the session runs calls through; undefined before its first call. */
  get current(): CallExecutor | undefined {
    return this.#current;
  }

  create(options: CallExecutorOptions): CallExecutor {
    this.#current = createCallExecutor(options);
    return this.#current;
  }
}

/** Built once per session from its personality's services. */
export const SESSION_SERVICES: readonly ServiceDescriptor[] = [
  { token: TOKENS.sessionState, scope: 'session', useClass: InMemorySessionState },
  { token: TOKENS.callExecutors, scope: 'session', useClass: SessionCallExecutors },
  {
    token: TOKENS.session,
    scope: 'session',
    inject: [TOKENS.sessionDeps, TOKENS.sessionOptions, TOKENS.sessionState, TOKENS.callExecutors],
    useFactory: (
      deps: SessionDeps,
      options: SessionOptions,
      state: InMemorySessionState,
      executors: SessionCallExecutors,
    ): Session =>
      createSession(deps, options, { state, createExecutor: (executor) => executors.create(executor) }),
  },
];
