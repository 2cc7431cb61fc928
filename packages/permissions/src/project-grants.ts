/**
 * Where a project's saved grants live. SQLite answers at once; a shared database (PostgreSQL,
 * for several replicas) answers with promises. The engine awaits only what is a promise, so the
 * single-host path keeps its synchronous reads.
 */
export interface ProjectGrants {
  /** Saves `rule`; `caller`: the signed-in caller whose session asked for it (kept with the first save). */
  add(rule: string, caller?: string): void | Promise<void>;
  remove(rule: string): boolean | Promise<boolean>;
  list(): readonly string[] | Promise<readonly string[]>;
  close(): void | Promise<void>;
}
