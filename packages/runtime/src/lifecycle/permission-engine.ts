import {
  checkPermissionRule,
  PermissionEngine,
  type ProjectGrants,
  type ProtectedPath,
  SessionGrantStore,
  type WorkspaceFilePins,
} from '@quiver/permissions';
import type { PermissionKind, PermissionRules, ToolRegistry } from '@quiver/types';
import { errorMessage, QuiverError } from '@quiver/types';
import type { SqliteBackend } from '../storage/sqlite-backend.js';
import { openSqliteProjectGrants } from '../storage/sqlite-project-grants.js';
import type {
  SessionPermissionEngine,
  SessionPermissionRules,
  SharedPermissionEngine,
} from './permission-decider.js';

export interface PersonalityPermissionEngineOptions {
  workspace: string;
  dataDir: string;
  /** Registered tools, so path denies written for one tool reach every tool of its kind up front. */
  registry?: ToolRegistry;
  /** What Quiver loads as configuration or code: no tool may write it. */
  protectedPaths?: ReadonlyArray<string | ProtectedPath>;
  /** The trust record's pinned workspace files (package.json, `.npmrc`…) that allowed programs read. */
  filePins?: WorkspaceFilePins;
  /** Saved grants shared by several replicas (PostgreSQL); default `<dataDir>/permissions.db`. Not closed here. */
  projectGrants?: ProjectGrants;
  /**
   * The SQLite driver `<dataDir>/permissions.db` is opened with (`sqliteBackend` of
   * `@quiver/storage-sqlite`). Without it or `projectGrants`, no saved grant applies and saving one fails.
   */
  sqlite?: SqliteBackend;
  /** Told once when the grant store cannot be opened and the sessions run without saved grants. */
  warn?: (message: string) => void;
}

/**
 * The grants of a project whose store could not be opened (damaged, emptied, unwritable): no
 * saved grant applies (decisions fall back to the rules, so more is asked, never more allowed),
 * and saving one fails with the error that names the file and the fix.
 */
class UnavailableProjectGrants implements ProjectGrants {
  constructor(readonly problem: unknown) {}

  add(): void {
    throw this.problem;
  }

  remove(): boolean {
    throw this.problem;
  }

  list(): string[] {
    return [];
  }

  close(): void {}
}

function noGrantBackend(): QuiverError {
  return new QuiverError(
    'storage_unavailable',
    'Saved permission grants cannot be opened: no SQLite backend was given.',
    {
      fix: 'Pass `sqlite: sqliteBackend` from @quiver/storage-sqlite (createQuiver of @quiver/wiring does).',
    },
  );
}

function describeProblem(error: unknown): string {
  const fix = (error as { fix?: unknown }).fix;
  const message = errorMessage(error);
  return typeof fix === 'string' ? `${message} Fix: ${fix}` : message;
}

function toolKinds(registry: ToolRegistry | undefined): Record<string, PermissionKind> {
  const kinds: Record<string, PermissionKind> = {};
  // Tools of plugins left out of this process keep their kinds: a path deny written for one of
  // them would otherwise count as a deny of every read and write tool.
  for (const tool of registry?.unloaded?.() ?? [])
    if (tool.permissionKind) kinds[tool.name] = tool.permissionKind;
  for (const { tool } of registry?.list() ?? []) {
    if (tool.permission) kinds[tool.name] = tool.permission.kind;
    else if (tool.mcp) kinds[tool.name] = 'mcp';
  }
  return kinds;
}

/**
 * Session rules checked as the engine will read them, every specifier parsed: a rule that does not
 * parse is `config_invalid` when the session is created or its options change, not at its first call.
 */
export function checkSessionPermissionRules(
  rules: PermissionRules | undefined,
  registry?: ToolRegistry,
): void {
  if (rules === undefined) return;
  const kinds = new Map(Object.entries(toolKinds(registry)));
  for (const behavior of ['deny', 'ask', 'allow'] as const)
    for (const rule of rules[behavior] ?? []) checkPermissionRule(rule, behavior, kinds);
}

/**
 * The permission engine of one personality, shared by its sessions: one connection to the
 * project grants in `<dataDir>/permissions.db`, opened on first use. Each session decides
 * through its own view, which adds the session's rules, its parent's denies and its grants.
 */
export class PersonalityPermissionEngine implements SharedPermissionEngine {
  readonly #options: PersonalityPermissionEngineOptions;
  #projectGrants: ProjectGrants | undefined;
  #closed = false;

  constructor(options: PersonalityPermissionEngineOptions) {
    this.#options = options;
  }

  forSession(session: SessionPermissionRules): SessionPermissionEngine {
    this.#projectGrants ??= this.#options.projectGrants ?? this.#openProjectGrants();
    const engine = new PermissionEngine({
      workspace: this.#options.workspace,
      layers: [session.rules],
      parentDenies: [...session.parentDenies],
      sessionGrants: new SessionGrantStore(),
      projectGrants: this.#projectGrants,
      toolKinds: toolKinds(this.#options.registry),
      ...(this.#options.protectedPaths ? { protectedPaths: this.#options.protectedPaths } : {}),
      ...(this.#options.filePins ? { filePins: this.#options.filePins } : {}),
    });
    return {
      decide: (request) => engine.decide(request),
      decideNow: (request) => engine.decideNow(request),
      grant: (rule, scope) => engine.grant(rule, scope, session.caller),
      // The grant store belongs to the personality: a session ending leaves it open for the others.
      close: () => {},
    };
  }

  /** A damaged grant store degrades saved grants only: the sessions run, and are told once. */
  #openProjectGrants(): ProjectGrants {
    try {
      const sqlite = this.#options.sqlite;
      if (sqlite === undefined) throw noGrantBackend();
      return openSqliteProjectGrants(this.#options.dataDir, sqlite);
    } catch (error) {
      this.#options.warn?.(
        `Saved permission grants are not applied: ${describeProblem(error)} Calls are decided by the configured rules alone until then.`,
      );
      return new UnavailableProjectGrants(error);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // A store handed in belongs to whoever opened it.
    if (this.#projectGrants !== this.#options.projectGrants) void this.#projectGrants?.close();
  }
}

/** The session's view of its personality's engine; without one (a bare runtime), an engine of its own. */
export function sessionPermissionEngine(
  deps: PersonalityPermissionEngineOptions & { permissionEngine?: SharedPermissionEngine },
  session: SessionPermissionRules,
): SessionPermissionEngine {
  if (deps.permissionEngine) return deps.permissionEngine.forSession(session);
  const own = new PersonalityPermissionEngine({
    workspace: deps.workspace,
    dataDir: deps.dataDir,
    ...(deps.registry ? { registry: deps.registry } : {}),
    ...(deps.protectedPaths ? { protectedPaths: deps.protectedPaths } : {}),
    ...(deps.filePins ? { filePins: deps.filePins } : {}),
    ...(deps.projectGrants ? { projectGrants: deps.projectGrants } : {}),
    ...(deps.sqlite ? { sqlite: deps.sqlite } : {}),
  });
  return { ...own.forSession(session), close: () => own.close() };
}
