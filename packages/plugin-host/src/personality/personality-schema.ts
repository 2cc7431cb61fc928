import { checkPermissionRule } from '@quiver/permissions';
import {
  CAPABILITY_NAMES,
  type CapabilityName,
  DEFAULT_RESULT_BUDGET,
  type PermissionBehavior,
  TOOL_NAME_PATTERN,
} from '@quiver/types';
import { z } from 'zod';

const toolName = z
  .string()
  .regex(TOOL_NAME_PATTERN, { error: 'must be a tool name: 1–64 letters, digits, "_" or "-"' })
  .describe('A tool name.');

/**
 * A permission rule, parsed whole (its specifier too) by the parsers the permission engine
 * matches with: a rule that does not parse is an error here, never a rule that matches nothing.
 */
const permissionRule = (behavior: PermissionBehavior) =>
  z
    .string()
    .superRefine((rule, ctx) => {
      try {
        checkPermissionRule(rule, behavior);
      } catch (error) {
        const fix = (error as { fix?: string }).fix;
        ctx.addIssue({ code: 'custom', message: `${(error as Error).message}${fix ? ` Fix: ${fix}` : ''}` });
      }
    })
    .describe(
      'A permission rule: ToolName or ToolName(specifier), e.g. terminal(git status:*), read_file(src/**), mcp__github.',
    );

const envVarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be an environment variable name (letters, digits, "_")' })
  .describe('An environment variable name.');

/**
 * How a list merges over the list it inherits (see config/merge-layers.ts): `replace` lists are
 * replaced by a plain list and edited by `{ add, remove }`; `union` lists (deny and ask rules,
 * exclusions) always keep every inherited item, so they take a plain list or `{ add }` only.
 */
export type ListMerge = 'replace' | 'union';

function list<T extends z.ZodType>(element: T, merge: ListMerge) {
  const add = z.array(element).optional().describe('Items added to the inherited list.');
  const edit =
    merge === 'replace'
      ? z.strictObject({
          add,
          remove: z
            .array(z.string())
            .optional()
            .describe('Items (or plugin ids) removed from the inherited list; each one is reported.'),
        })
      : z.strictObject({ add });
  return z.union([z.array(element), edit], {
    error:
      merge === 'replace'
        ? 'expected a list (which replaces the inherited one) or { add: [...], remove: [...] } (which edits it)'
        : 'expected a list or { add: [...] }; inherited items are always kept',
  });
}

const count = z.number().int().nonnegative();

const mcpServerGate = z
  .union(
    [
      z.literal(true),
      z.strictObject({
        includeTools: list(z.string(), 'replace')
          .optional()
          .describe('Only these tools of the server (original or mcp__ names); absent = all.'),
        excludeTools: list(z.string(), 'union').optional().describe('Tools of the server to hide.'),
        promptNames: z
          .enum(['namespaced', 'own'])
          .optional()
          .describe(
            "How `quiver serve` names the server's prompts for its clients: `namespaced` (default) as `mcp__<server>__<prompt>`, like its tools; `own` under the server's own names, for clients that ask for a prompt by a fixed name. serve refuses prompts/list and prompts/get while two sources would offer one name. Resource URIs are never renamed.",
          ),
      }),
    ],
    { error: 'expected `true` or `{ includeTools, excludeTools, promptNames: namespaced | own }`' },
  )
  .describe('`true` enables every tool of the server; an object narrows them.');

const deferThreshold = z.strictObject({
  maxTools: count.optional().describe('Defer MCP and external tools when the pool has more tools than this.'),
  maxTokens: count
    .optional()
    .describe('Defer MCP and external tools when their definitions are estimated above this many tokens.'),
});

/**
 * One personality file as written. Every key is optional so that `extends` can tell "not set"
 * from "set": when a personality extends another, the child wins key by key, maps merge key by
 * key, a plain list REPLACES the parent's list (so a child can narrow `plugins` or `toolset`),
 * `{ add, remove }` edits it, and deny and ask rules are always the union of the chain (see
 * config/merge-layers.ts). Defaults are applied once, after merging (see PERSONALITY_DEFAULTS).
 */
export const personalitySchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .optional()
    .describe('Identifier of the personality; defaults to the file name without extension.'),
  description: z.string().optional().describe('What this personality is for, shown by `quiver personality`.'),
  extends: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A personality to start from: a name (looked up like any personality) or a path relative to this file.',
    ),
  toolset: list(toolName, 'replace')
    .optional()
    .describe(
      'Built-in tools the model may see, by name. Absent = every built-in of the enabled plugins; [] = none.',
    ),
  plugins: list(
    z.union([
      z.string().min(1),
      z.strictObject({
        id: z.string().min(1).describe('The plugin id.'),
        config: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            "Settings for the plugin, over its `pluginConfig` section in quiver.yaml (key by key, the personality winning); checked against the plugin's config schema when the personality is first used; its sessions' calls see them. `quiver plugins` lists the settings each plugin takes.",
          ),
      }),
    ]),
    'replace',
  )
    .optional()
    .describe(
      'Plugins whose tools are enabled: a plugin id, or `{ id, config }` to give it settings. Plugins not listed are off (deny by default).',
    ),
  mcpServers: z
    .record(z.string(), mcpServerGate)
    .optional()
    .describe(
      'MCP servers whose tools are enabled, by server name. Servers not listed are off (deny by default).',
    ),
  permissions: z
    .strictObject({
      allow: list(permissionRule('allow'), 'replace')
        .optional()
        .describe('Rules for calls that run without asking.'),
      ask: list(permissionRule('ask'), 'union')
        .optional()
        .describe('Rules for calls that need a decision (denied when headless).'),
      deny: list(permissionRule('deny'), 'union')
        .optional()
        .describe('Rules for calls that never run; a blanket deny also hides the tool.'),
    })
    .optional()
    .describe('Permission rules; deny wins over ask, ask over allow.'),
  agents: z
    .record(
      z.string(),
      z.strictObject({
        description: z.string().optional().describe('When to use this agent.'),
        tools: list(z.string(), 'replace')
          .optional()
          .describe(
            'Tools the agent may use, as users write them: tool names, aliases, Claude Code names (Read, Grep, Glob, Bash, …), plugin ids or `mcp__server__*`. `["*"]` or absent = the usual set.',
          ),
        disallowedTools: list(z.string(), 'union')
          .optional()
          .describe('Tools the agent may not use, written like `tools`.'),
      }),
    )
    .optional()
    .describe('Custom agents by name.'),
  budget: z
    .strictObject({
      resultChars: count
        .optional()
        .describe('Total characters of tool results per model turn, split between the calls.'),
    })
    .optional()
    .describe('Result size budget.'),
  deferLoading: z
    .strictObject({
      enabled: z
        .union([z.boolean(), z.literal('auto')], { error: "expected true, false or 'auto'" })
        .optional()
        .describe(
          "Defer MCP and external tool definitions behind tool_search: true, false, or 'auto' (above the thresholds).",
        ),
      maxTools: deferThreshold.shape.maxTools,
      maxTokens: deferThreshold.shape.maxTokens,
    })
    .optional()
    .describe('Deferred loading of tool definitions.'),
  simpleMode: z.boolean().optional().describe('Offer only the basic tools (mode rules of the runtime).'),
  log: z
    .strictObject({
      arguments: z
        .enum(['full', 'shapes'], { error: "expected 'full' or 'shapes'" })
        .optional()
        .describe(
          "What the session log (`quiver log`) keeps of call arguments: 'full', or 'shapes' (keys and value types, no values) when tools receive secrets.",
        ),
    })
    .optional()
    .describe('The session log in the data directory.'),
  repl: z
    .boolean()
    .optional()
    .describe(
      "REPL mode: when the repl tool (plugin tools-repl) is in the pool, the file and shell tools leave the model's list and are called from its scripts instead.",
    ),
  modelProfiles: z
    .record(
      z.string(),
      z.strictObject({
        editStyle: z
          .enum(['apply_patch', 'str_replace', 'any'])
          .optional()
          .describe(
            'How the model edits files: apply_patch (GPT-family envelope patches), str_replace (edit_file/multi_edit), any (both).',
          ),
        supportsDeferLoading: z
          .boolean()
          .optional()
          .describe('Whether the provider understands deferred tool definitions.'),
        deferThreshold: deferThreshold
          .optional()
          .describe('Thresholds above which tools are deferred for this profile.'),
      }),
    )
    .optional()
    .describe('Overrides of model profile settings, by profile id.'),
  sandbox: z
    .enum(['auto', 'off', 'required'])
    .optional()
    .describe(
      "Process sandboxing: 'auto' (when available), 'off', or 'required' (refuse to run without it).",
    ),
  unixSockets: list(
    z.string().refine((value) => value.startsWith('/'), {
      message: 'must be an absolute path, e.g. /run/docker.sock',
    }),
    'replace',
  )
    .optional()
    .describe(
      'Unix sockets (absolute paths) that sandboxed terminal commands may connect to; the sandbox hides every other socket on the file system.',
    ),
  secrets: z
    .record(z.string(), list(envVarName, 'replace'))
    .optional()
    .describe('Environment variables granted as secrets, by tool name (or `*` for every tool).'),
  backends: z
    .partialRecord(z.enum(CAPABILITY_NAMES), z.string().min(1))
    .optional()
    .describe(
      'Which backend serves a capability when several could, by owner: `host` or an enabled plugin id (e.g. `fs_reach: my-plugin`).',
    ),
});

export type PersonalityFile = z.infer<typeof personalitySchema>;

/** The lists of a personality and how each merges over the one it inherits (config/merge-layers.ts). */
export const PERSONALITY_LISTS = {
  replace: [
    'toolset',
    'plugins',
    'permissions.allow',
    'mcpServers.*.includeTools',
    'agents.*.tools',
    'unixSockets',
    'secrets.*',
  ],
  union: ['permissions.deny', 'permissions.ask', 'mcpServers.*.excludeTools', 'agents.*.disallowedTools'],
} as const satisfies Record<ListMerge, readonly string[]>;

/** One enabled MCP server: `true`, or which of its tools and how serve names its prompts. */
export type McpServerGateSettings =
  | true
  | { includeTools?: string[]; excludeTools?: string[]; promptNames?: 'namespaced' | 'own' };

/** Values for keys no file in the `extends` chain sets. `toolset` has none on purpose: absent means every built-in. */
export const PERSONALITY_DEFAULTS = {
  plugins: [] as string[],
  pluginConfig: {} as Record<string, Record<string, unknown>>,
  mcpServers: {} as Record<string, McpServerGateSettings>,
  permissions: { allow: [] as string[], ask: [] as string[], deny: [] as string[] },
  agents: {} as Record<string, { description?: string; tools?: string[]; disallowedTools?: string[] }>,
  budget: { resultChars: DEFAULT_RESULT_BUDGET },
  deferLoading: { enabled: 'auto' as boolean | 'auto' },
  simpleMode: false,
  log: { arguments: 'full' as 'full' | 'shapes' },
  repl: false,
  modelProfiles: {} as NonNullable<PersonalityFile['modelProfiles']>,
  sandbox: 'auto' as 'auto' | 'off' | 'required',
  unixSockets: [] as string[],
  secrets: {} as Record<string, string[]>,
  backends: {} as Partial<Record<CapabilityName, string>>,
};

/** A resolved personality: the `extends` chain merged, defaults applied. */
export interface Personality {
  id: string;
  description?: string;
  /** Undefined = every built-in of the enabled plugins; [] = none. */
  toolset?: string[];
  plugins: string[];
  /**
   * Settings the personality gives plugins (`plugins: [{ id, config }]`), by plugin id, over
   * quiver.yaml's `pluginConfig`. A plugin's `config` service shows them while this
   * personality's sessions call its tools.
   */
  pluginConfig: Record<string, Record<string, unknown>>;
  mcpServers: Record<string, McpServerGateSettings>;
  permissions: { allow: string[]; ask: string[]; deny: string[] };
  agents: Record<string, { description?: string; tools?: string[]; disallowedTools?: string[] }>;
  budget: { resultChars: number };
  deferLoading: { enabled: boolean | 'auto'; maxTools?: number; maxTokens?: number };
  simpleMode: boolean;
  /** What the session log keeps of call arguments. */
  log: { arguments: 'full' | 'shapes' };
  repl: boolean;
  modelProfiles: NonNullable<PersonalityFile['modelProfiles']>;
  sandbox: 'auto' | 'off' | 'required';
  /** Unix sockets a sandboxed terminal command may reach. */
  unixSockets: string[];
  secrets: Record<string, string[]>;
  /** The backend owner (`host` or a plugin id) chosen per capability where several could serve. */
  backends: Partial<Record<CapabilityName, string>>;
  /** Where it came from, the personality asked for first, then each personality it extends. */
  sources: string[];
}
