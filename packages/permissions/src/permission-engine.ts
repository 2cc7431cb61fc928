import {
  errorMessage,
  type GrantScope,
  type PermissionBehavior,
  type PermissionDecision,
  type PermissionKind,
  type PermissionRules,
  QuiverError,
  type ToolPermissionSpec,
} from '@quiver/types';
import { checkPermissionRule } from './check-rule.js';
import { decideName, decidePaths, decideSpecifier, decideUrl } from './decide-resources.js';
import { decideShellCommand } from './decide-shell.js';
import { InMemoryFilePins } from './file-fingerprint.js';
import { SessionGrantStore } from './grant-stores.js';
import type { ProjectGrants } from './project-grants.js';
import { type ProtectedPath, WORKSPACE_PROTECTED_PATHS } from './protected-paths.js';
import { protectionRules } from './protection-rules.js';
import type { PermissionRule } from './rule.js';
import { RuleSet, type RuleSetCaches } from './rule-set.js';
import type { TrustedFileState, WorkspaceFilePins } from './trusted-files.js';
import { toolPathSubject } from './workspace-path.js';

export interface PermissionEngineOptions {
  /** Path rules are relative to this directory. */
  workspace: string;
  /** Rule layers in order (personality, session options, …); all of them apply. */
  layers: PermissionRules[];
  /** Denies of the parent agent: they bound this one whatever its own layers allow. */
  parentDenies?: string[];
  sessionGrants?: SessionGrantStore;
  /** Saved grants (`ProjectGrantStore` over the host's SQLite file, or PostgreSQL for several replicas). */
  projectGrants?: ProjectGrants;
  /**
   * Kinds of tools that may not be the one being decided, so that a deny written for one
   * read tool (`read_file(secrets/**)`) also holds for the others. Conventional names
   * (`read_file`, `grep`, `write_file`, `edit_file`, …) are known without it, and every
   * decided request teaches the engine its tool's kind.
   */
  toolKinds?: Record<string, PermissionKind>;
  /**
   * What Quiver loads as configuration or code, and its data directory: write-denied to every
   * tool (file tools, shell redirections, shell arguments) whatever the rules allow. A plain
   * string is explained as "protected: Quiver loads this file as configuration".
   */
  protectedPaths?: ReadonlyArray<string | ProtectedPath>;
  /**
   * The trust record's pinned workspace files (package.json, `.npmrc`, makefiles…): a rule allows
   * a program that reads such a file only while it is pinned as it is now. Absent: none is pinned,
   * so such programs ask until a person grants them (which pins for the session).
   */
  filePins?: WorkspaceFilePins;
}

export interface PermissionRequest {
  toolName: string;
  args: unknown;
  spec?: ToolPermissionSpec;
  /** The MCP server the tool comes from, when it is an MCP tool. */
  mcpServer?: string;
  /**
   * A tool without a permission kind of its own (an SDK client's): only allow and ask rules that
   * name it decide it, never a blanket rule written for another tool (the shell rule space's
   * `terminal`). Deny rules apply as to any tool.
   */
  byNameOnly?: boolean;
}

/** Decides allow, ask or deny for a tool call from rule layers, parent denies and grants. */
/** A deny rule that names the whole tool (or its MCP server): decided before anything else. */
function blanketDenial(
  rules: RuleSet,
  toolName: string,
  mcpServer: string | undefined,
): PermissionDecision | undefined {
  const rule = rules.blanket('deny', toolName, mcpServer);
  if (rule === undefined) return undefined;
  return { behavior: 'deny', rule: rule.source, reason: `${toolName} is denied by rule "${rule.source}"` };
}

export class PermissionEngine {
  readonly #workspace: string;
  readonly #deny: PermissionRule[];
  readonly #ask: PermissionRule[];
  readonly #allow: PermissionRule[];
  readonly #sessionGrants: SessionGrantStore;
  readonly #projectGrants: ProjectGrants | undefined;
  readonly #toolKinds = new Map<string, PermissionKind>();
  readonly #protections: PermissionRule[];
  #onceGrants: PermissionRule[] = [];
  readonly #filePins: WorkspaceFilePins | undefined;
  /** Workspace files a person's grant in this session trusted as they were then. */
  readonly #sessionPins = new InMemoryFilePins();
  /** The untrusted workspace files behind the last ask that suggested each rule: a grant of it pins them. */
  readonly #pendingPins = new Map<string, string[]>();
  readonly #caches: RuleSetCaches = { pathMatchers: new Map(), pathBases: new Map() };
  readonly #parsedGrants = new Map<string, PermissionRule | undefined>();
  /** Tools whose rules do not parse as the kind a call showed: every decision for them fails. */
  readonly #kindErrors = new Map<string, unknown>();

  constructor(options: PermissionEngineOptions) {
    this.#workspace = options.workspace;
    for (const [name, kind] of Object.entries(options.toolKinds ?? {})) this.#toolKinds.set(name, kind);
    // Every specifier is parsed now, by the matchers' own parsers: one that does not parse is a
    // configuration error here, never a rule that matches nothing later.
    const check = (behavior: PermissionBehavior) => (rule: string) =>
      checkPermissionRule(rule, behavior, this.#toolKinds);
    this.#deny = [
      ...options.layers.flatMap((layer) => layer.deny ?? []),
      ...(options.parentDenies ?? []),
    ].map(check('deny'));
    this.#ask = options.layers.flatMap((layer) => layer.ask ?? []).map(check('ask'));
    this.#allow = options.layers.flatMap((layer) => layer.allow ?? []).map(check('allow'));
    this.#sessionGrants = options.sessionGrants ?? new SessionGrantStore();
    this.#projectGrants = options.projectGrants;
    // The workspace's own entries hold whatever the host passes: a bare engine protects them too.
    this.#protections = protectionRules(
      [...(options.protectedPaths ?? []), ...WORKSPACE_PROTECTED_PATHS],
      options.workspace,
    );
    this.#filePins = options.filePins;
  }

  #fileState(absolutePath: string): TrustedFileState {
    if (this.#sessionPins.has(absolutePath)) return this.#sessionPins.state(absolutePath);
    return this.#filePins?.state(absolutePath) ?? 'unpinned';
  }

  async decide(request: PermissionRequest): Promise<PermissionDecision> {
    const { toolName, spec, mcpServer } = request;
    if (spec) this.#learnKind(toolName, spec.kind);
    // Once grants belong to this decision: taken before any wait, so a concurrent one cannot use them.
    const once = this.#onceGrants;
    this.#onceGrants = [];
    const own = this.#ruleSet([], []);
    const blanketDeny = blanketDenial(own, toolName, mcpServer);
    if (blanketDeny) return blanketDeny;
    // Saved and once grants only add allow rules, after the layers' and the session's: a decision
    // those rules allow comes out the same, naming the same rule, whatever is saved. So the saved
    // grants (a database read per decision, a round trip when shared) are read only when it does
    // not. Shell decisions are taken whole: a saved blanket rule would name itself instead.
    if (this.#projectGrants !== undefined && spec?.kind !== 'shell') {
      const decided = await this.#decideByKind(request, own);
      if (decided.behavior === 'allow') return decided;
    }
    const saved = this.#projectGrants?.list() ?? [];
    return this.#decideByKind(
      request,
      this.#ruleSet(saved instanceof Promise ? await saved : saved, once),
      once.length > 0,
    );
  }

  /**
   * The decision `decide` would give, taken at once when that needs no wait: a tool judged by
   * its name (no permission spec, or an MCP tool) with no once grant pending, allowed by the
   * configured rules or the session's grants, or judged with no saved grants to read. Undefined
   * when only `decide` can tell. A caller running many cheap calls saves a turn of the event loop.
   */
  decideNow(request: PermissionRequest): PermissionDecision | undefined {
    const { toolName, spec, mcpServer } = request;
    if ((spec !== undefined && mcpServer === undefined) || this.#onceGrants.length > 0) return undefined;
    if (spec) this.#learnKind(toolName, spec.kind);
    const own = this.#ruleSet([], []);
    const blanketDeny = blanketDenial(own, toolName, mcpServer);
    if (blanketDeny) return blanketDeny;
    const decided = decideName(toolName, own, mcpServer, request.byNameOnly);
    return decided.behavior === 'allow' || this.#projectGrants === undefined ? decided : undefined;
  }

  async #decideByKind(
    request: PermissionRequest,
    rules: RuleSet,
    approvedOnce = false,
  ): Promise<PermissionDecision> {
    const { toolName, spec, args, mcpServer } = request;
    if (!spec || mcpServer !== undefined) return decideName(toolName, rules, mcpServer, request.byNameOnly);
    const extracted = extract(() => subjectsOf(spec, args));
    if (!extracted.ok) {
      return {
        behavior: 'ask',
        reason: `the ${spec.kind} subject could not be read from the arguments: ${extracted.error}`,
        suggestedRule: toolName,
      };
    }
    const value = extracted.value;
    switch (spec.kind) {
      case 'shell': {
        const command = value as string;
        const cwd = extract(() => spec.cwd?.(args));
        const requested = cwd.ok ? cwd.value : undefined;
        // The working directory is a path argument too: read it as the tool will open it.
        const base = requested === undefined ? undefined : toolPathSubject(requested, this.#workspace);
        if (base !== undefined && !base.ok)
          return { behavior: 'deny', reason: `cwd ${requested}: ${base.error} ${base.fix}` };
        const decided = await decideShellCommand(
          {
            toolName,
            command,
            cwd: base?.normalized,
            fileState: (file) => this.#fileState(file),
            trustWorkspaceOnce: approvedOnce,
          },
          rules,
        );
        const { untrustedFiles, ...decision } = decided as PermissionDecision & { untrustedFiles?: string[] };
        if (untrustedFiles && decision.behavior === 'ask' && decision.suggestedRule)
          this.#pendingPins.set(decision.suggestedRule, untrustedFiles);
        return decision;
      }
      case 'read':
      case 'write': {
        const paths = value as string[];
        return decidePaths(toolName, spec.kind, paths, rules);
      }
      case 'url':
        return decideUrl(toolName, value as string, rules);
      default:
        return decideSpecifier(toolName, value as string | undefined, rules);
    }
  }

  /**
   * A call teaches the engine its tool's kind. The rules naming that tool were checked by the kind
   * known when they were given; they are checked again by this one, so a rule that does not parse
   * as what the tool turns out to be fails every decision for it instead of matching nothing.
   */
  #learnKind(toolName: string, kind: PermissionKind): void {
    if (this.#toolKinds.get(toolName) !== kind) {
      this.#toolKinds.set(toolName, kind);
      this.#kindErrors.delete(toolName);
      const layers = [
        ['deny', this.#deny],
        ['ask', this.#ask],
        ['allow', this.#allow],
      ] as const;
      try {
        for (const [behavior, rules] of layers)
          for (const rule of rules)
            if (rule.tool === toolName) checkPermissionRule(rule.source, behavior, this.#toolKinds);
      } catch (error) {
        this.#kindErrors.set(toolName, error);
      }
    }
    if (this.#kindErrors.has(toolName)) throw this.#kindErrors.get(toolName);
  }

  /**
   * Adds `rule` to the allow layer: for the next decision only, this session, or the project
   * (saved, with the signed-in `caller` whose session asked for it, when there is one).
   */
  grant(rule: string, scope: GrantScope, caller?: string): void | Promise<void> {
    const parsed = checkPermissionRule(rule, 'allow', this.#toolKinds);
    const files = this.#pendingPins.get(parsed.source) ?? this.#pendingPins.get(rule) ?? [];
    if (scope !== 'once' && files.length > 0) this.#sessionPins.pin(files);
    if (scope === 'once') this.#onceGrants.push(parsed);
    else if (scope === 'session') this.#sessionGrants.add(parsed.source);
    else if (this.#projectGrants) {
      const pinned = files.length > 0 ? this.#filePins?.pin(files) : undefined;
      const saved = this.#projectGrants.add(parsed.source, caller);
      if (pinned instanceof Promise || saved instanceof Promise)
        return Promise.all([pinned, saved]).then(() => undefined);
      return;
    } else {
      throw new QuiverError(
        'config_invalid',
        `Cannot save the project grant "${rule}": this engine has no project grant store.`,
        {
          fix: 'Pass projectGrants (a ProjectGrantStore over the host\'s store) to the PermissionEngine, or grant with scope "session".',
          details: { rule },
        },
      );
    }
  }

  #ruleSet(projectGrants: readonly string[], onceGrants: readonly PermissionRule[]): RuleSet {
    const grants = [...this.#sessionGrants.list(), ...projectGrants]
      .map((rule) => this.#parsed(rule))
      .filter((rule) => rule !== undefined);
    return new RuleSet(
      this.#workspace,
      this.#deny,
      this.#ask,
      [...this.#allow, ...grants, ...onceGrants],
      this.#toolKinds,
      this.#caches,
      this.#protections,
    );
  }

  /**
   * Granted rules are parsed once: a session's and a project's grants are read for every decision.
   * A saved grant that does not parse (saved by an older version) is left out: it could only allow.
   */
  #parsed(source: string): PermissionRule | undefined {
    if (this.#parsedGrants.has(source)) return this.#parsedGrants.get(source);
    let rule: PermissionRule | undefined;
    try {
      rule = checkPermissionRule(source, 'allow', this.#toolKinds);
    } catch {
      rule = undefined;
    }
    this.#parsedGrants.set(source, rule);
    return rule;
  }
}

function subjectsOf(spec: ToolPermissionSpec, args: unknown): unknown {
  switch (spec.kind) {
    case 'shell':
      return requireType(spec.command(args), 'string');
    case 'read':
    case 'write': {
      const paths = spec.paths(args);
      if (!Array.isArray(paths) || paths.some((entry) => typeof entry !== 'string'))
        throw new TypeError('paths() did not return an array of strings');
      return paths;
    }
    case 'url':
      return requireType(spec.url(args), 'string');
    default: {
      const specifier = spec.specifier?.(args);
      return specifier === undefined ? undefined : requireType(specifier, 'string');
    }
  }
}

function requireType(value: unknown, type: 'string'): unknown {
  if (typeof value !== type) throw new TypeError(`expected a ${type}, got ${typeof value}`);
  return value;
}

function extract<T>(read: () => T): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}
