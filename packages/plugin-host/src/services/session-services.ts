import { InMemorySessionState } from '@quiver/core';
import { createSession, type Session, type SessionDeps, type SessionOptions } from '@quiver/runtime';
import type { Logger } from '@quiver/types';
import type { ServiceDescriptor } from '../scopes.js';
import { TOKENS } from '../tokens.js';
import { SessionCallExecutors } from './session-call-executors.js';

/** Built once per session from its personality's services. */
export const SESSION_SERVICES: readonly ServiceDescriptor[] = [
  { token: TOKENS.sessionState, scope: 'session', useClass: InMemorySessionState },
  {
    token: TOKENS.callExecutors,
    scope: 'session',
    inject: [TOKENS.logger],
    useFactory: (logger: Logger) => new SessionCallExecutors(logger),
    dispose: (executors: SessionCallExecutors) => executors.close(),
  },
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
