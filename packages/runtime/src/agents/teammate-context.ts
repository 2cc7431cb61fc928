import { AsyncLocalStorage } from 'node:async_hooks';

export interface TeammateIdentity {
  name?: string;
}

let storage: AsyncLocalStorage<TeammateIdentity> | undefined;

/**
 * Runs `fn` as an in-process teammate: sessions created inside it (with no explicit agent kind)
 * get the teammate tool policy, however deep the async call chain goes.
 */
export function runAsTeammate<T>(fn: () => T, teammate: TeammateIdentity = {}): T {
  storage ??= new AsyncLocalStorage<TeammateIdentity>();
  return storage.run(teammate, fn);
}

/** The teammate the current async context runs as, if any. */
export function currentTeammate(): TeammateIdentity | undefined {
  return storage?.getStore();
}
