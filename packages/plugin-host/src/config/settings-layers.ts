import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkPermissionRule } from '@quiver/permissions';
import { type PermissionBehavior, type PermissionKind, QuiverError } from '@quiver/types';
import { z } from 'zod';
import type { QuiverConfig } from './config-schema.js';
import { formatZodIssues } from './format-issues.js';
import { type MergeLayer, mergeLayers } from './merge-layers.js';
import { keyLocationText, parseLocatedYaml } from './yaml-locations.js';

/**
 * Where settings come from, strongest first for single values: the machine's managed file, the
 * person's own file, the project's quiver.yaml, its uncommitted quiver.local.yaml. The workspace
 * is reachable by the model, so its layers never override the person's.
 */
export type SettingsScope = 'managed' | 'user' | 'project' | 'local';

export const SETTINGS_SCOPES: readonly SettingsScope[] = ['managed', 'user', 'project', 'local'];

/** The machine's managed settings (an administrator's; a test or a packager may name another file). */
export const MANAGED_SETTINGS_FILE = '/etc/quiver/managed.yaml';
/** The uncommitted override beside quiver.yaml, trusted with the project. */
export const LOCAL_CONFIG_FILE_NAME = 'quiver.local.yaml';

export interface SettingsFile {
  scope: SettingsScope;
  file: string;
  exists: boolean;
}

/** The managed file: `QUIVER_MANAGED_SETTINGS` when set (tests, packagers), else /etc/quiver/managed.yaml. */
export function managedSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.QUIVER_MANAGED_SETTINGS ? path.resolve(env.QUIVER_MANAGED_SETTINGS) : MANAGED_SETTINGS_FILE;
}

/** The person's own settings: `$XDG_CONFIG_HOME/quiver/config.yaml` (default ~/.config). */
export function userSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  const configHome = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(configHome, 'quiver', 'config.yaml');
}

/** quiver.local.yaml beside a project's quiver.yaml. */
export function localConfigFile(configFile: string): string {
  return path.join(path.dirname(configFile), LOCAL_CONFIG_FILE_NAME);
}

/** Every settings file of every scope for a project (whether it exists or not), strongest first. */
export function settingsFiles(
  configFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SettingsFile[] {
  const files: Array<[SettingsScope, string | undefined]> = [
    ['managed', managedSettingsFile(env)],
    ['user', userSettingsFile(env)],
    ['project', configFile],
    ['local', configFile ? localConfigFile(configFile) : undefined],
  ];
  return files
    .filter((entry): entry is [SettingsScope, string] => entry[1] !== undefined)
    .map(([scope, file]) => ({ scope, file, exists: existsSync(file) }));
}

const rule = (behavior: PermissionBehavior) =>
  z.string().superRefine((value, ctx) => {
    try {
      checkPermissionRule(value, behavior);
    } catch (error) {
      const fix = (error as { fix?: string }).fix;
      ctx.addIssue({ code: 'custom', message: `${(error as Error).message}${fix ? ` Fix: ${fix}` : ''}` });
    }
  });

const rules = (behavior: PermissionBehavior) =>
  z.union([z.array(rule(behavior)), z.strictObject({ add: z.array(rule(behavior)) })]).optional();

/** What the person's and the machine's layers may set. */
export const personSettingsSchema = z
  .strictObject({
    mcpServers: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe('MCP servers of your own, as in quiver.yaml; a personality still enables each by name.'),
    defaultPersonality: z.string().optional().describe('The personality used when none is named.'),
    permissions: z
      .strictObject({
        allow: rules('allow').describe('Rules for calls that run without asking, in every session.'),
        ask: rules('ask').describe('Rules for calls that need a decision, in every session.'),
        deny: rules('deny').describe(
          'Rules for calls that never run, in every session: no layer can loosen them.',
        ),
      })
      .optional()
      .describe('Permission rules added to every session; deny and ask rules of every layer hold.'),
    allowTrustProject: z
      .boolean()
      .optional()
      .describe(
        'Managed settings only: false refuses --trust-project (projects must be trusted with `quiver trust`).',
      ),
  })
  .describe(
    "Quiver's settings of a person ($XDG_CONFIG_HOME/quiver/config.yaml) or a machine (/etc/quiver/managed.yaml).",
  );

export type PersonSettingsLayer = z.infer<typeof personSettingsSchema>;

export interface PersonSettings {
  /** The layers read, strongest first. */
  files: SettingsFile[];
  mcpServers: Record<string, Record<string, unknown>>;
  /** The scope each of those servers comes from. */
  serverScopes: Record<string, 'managed' | 'user'>;
  defaultPersonality: string | undefined;
  permissions: { allow: string[]; ask: string[]; deny: string[] };
  allowTrustProject: boolean;
}

/** Reads a settings file with positions; errors name `file:line:column`. */
export function readSettingsFile<T>(
  file: string,
  schema: z.ZodType<T>,
): { data: T; raw: Record<string, unknown> } {
  const located = parseLocatedYaml(readFileSync(file, 'utf8'));
  if (located.syntaxError)
    throw new QuiverError(
      'config_invalid',
      `${keyLocationText(file, located.syntaxError.location)}: not valid YAML: ${located.syntaxError.message}`,
      { fix: 'Fix the YAML syntax at the line shown.', details: { file } },
    );
  const raw = (located.data ?? {}) as Record<string, unknown>;
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new QuiverError(
      'config_invalid',
      `${file} is not valid Quiver settings:\n${formatZodIssues(parsed.error, schema, (keyPath) => keyLocationText(file, located.locate(keyPath)))}`,
      { fix: 'Correct the keys listed above.', details: { file } },
    );
  return { data: parsed.data, raw };
}

const LIST_KEYS = { replace: ['permissions.allow'], union: ['permissions.deny', 'permissions.ask'] } as const;

/**
 * The person's and the machine's rules parsed again with the loaded tools' kinds (an ask on
 * `grep_search` is a path glob): the schema reads a rule by its tool's conventional name only.
 * Throws `config_invalid` at the file, line and column of the first rule that does not parse.
 */
export function checkPersonSettingsRules(
  person: Pick<PersonSettings, 'files'>,
  toolKinds: ReadonlyMap<string, PermissionKind>,
): void {
  for (const entry of person.files) {
    if (!entry.exists || (entry.scope !== 'managed' && entry.scope !== 'user')) continue;
    const located = parseLocatedYaml(readFileSync(entry.file, 'utf8'));
    const permissions = (located.data as { permissions?: Record<string, unknown> } | undefined)?.permissions;
    for (const behavior of ['allow', 'ask', 'deny'] as const) {
      const written = permissions?.[behavior];
      const [rules, keyPath] = Array.isArray(written)
        ? [written, ['permissions', behavior]]
        : [(written as { add?: unknown[] } | undefined)?.add ?? [], ['permissions', behavior, 'add']];
      rules.forEach((rule, index) => {
        try {
          checkPermissionRule(String(rule), behavior, toolKinds);
        } catch (error) {
          const fix = (error as { fix?: string }).fix;
          const at = keyLocationText(entry.file, located.locate([...keyPath, index]));
          throw new QuiverError(
            'config_invalid',
            `${at}: ${[...keyPath, index].join('.')}: ${(error as Error).message}`,
            { ...(fix ? { fix } : {}), details: { file: entry.file } },
          );
        }
      });
    }
  }
}

/** The person's and the machine's layers, merged: managed over user for single values, every rule kept. */
export function readPersonSettings(env: NodeJS.ProcessEnv = process.env): PersonSettings {
  const files = settingsFiles(undefined, env);
  const layers: MergeLayer[] = [];
  const serverScopes: Record<string, 'managed' | 'user'> = {};
  // Weakest first: the user's layer, then the machine's over it.
  for (const entry of [...files].reverse()) {
    if (!entry.exists) continue;
    const { raw, data } = readSettingsFile(entry.file, personSettingsSchema);
    if (entry.scope === 'user' && data.allowTrustProject !== undefined)
      throw new QuiverError(
        'config_invalid',
        `${entry.file}: allowTrustProject is a managed setting (${managedSettingsFile(env)}).`,
        { fix: `Remove allowTrustProject from ${entry.file}.`, details: { file: entry.file } },
      );
    for (const server of Object.keys(data.mcpServers ?? {}))
      serverScopes[server] = entry.scope as 'managed' | 'user';
    layers.push({ source: entry.file, data: raw });
  }
  const merged = mergeLayers(layers, LIST_KEYS).data as PersonSettingsLayer;
  const list = (value: unknown): string[] =>
    Array.isArray(value)
      ? value
      : value && typeof value === 'object'
        ? ((value as { add?: string[] }).add ?? [])
        : [];
  return {
    files,
    mcpServers: merged.mcpServers ?? {},
    serverScopes,
    defaultPersonality: merged.defaultPersonality,
    permissions: {
      allow: list(merged.permissions?.allow),
      ask: list(merged.permissions?.ask),
      deny: list(merged.permissions?.deny),
    },
    allowTrustProject: merged.allowTrustProject ?? true,
  };
}

/**
 * The project's configuration (as trust allows it) with the person's and the machine's layers over
 * it: their servers join (a server of theirs replaces the project's of that name), their default
 * personality wins.
 */
export function withPersonSettings(config: QuiverConfig, person: PersonSettings): QuiverConfig {
  return {
    ...config,
    mcpServers: { ...config.mcpServers, ...person.mcpServers },
    defaultPersonality: person.defaultPersonality ?? config.defaultPersonality,
  };
}

/** quiver.yaml with quiver.local.yaml under it (the project wins single values; lists merge as `extends` does). */
export function mergeLocalConfig(
  project: { file: string; raw: Record<string, unknown> },
  local: { file: string; raw: Record<string, unknown> } | undefined,
): Record<string, unknown> {
  if (local === undefined) return project.raw;
  return mergeLayers(
    [
      { source: local.file, data: local.raw },
      { source: project.file, data: project.raw },
    ],
    { replace: ['plugins'], union: [] },
  ).data;
}
