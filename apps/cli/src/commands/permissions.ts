import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ProjectGrantStore } from '@quiver/permissions';
import { visibleText } from '@quiver/types';
import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { CliError, color, printJson, printLine } from '../output.js';
import { editSettingsFile, projectSettingsFiles, refuseInsideQuiverTools } from '../settings-files.js';

const BEHAVIORS = ['allow', 'ask', 'deny'] as const;
type Behavior = (typeof BEHAVIORS)[number];
const SCOPES = ['user', 'personality'] as const;
type RuleScope = (typeof SCOPES)[number];

interface RuleEntry {
  scope: string;
  file: string;
  behavior: Behavior;
  rule: string;
}

function behaviorOf(value: string): Behavior {
  if (!BEHAVIORS.includes(value as Behavior))
    throw new CliError(
      `"${value}" is not allow, ask or deny.`,
      'e.g. `quiver permissions add deny "terminal(rm:*)"`.',
    );
  return value as Behavior;
}

function scopeOf(value: string | undefined): RuleScope {
  const scope = value ?? 'user';
  if (!SCOPES.includes(scope as RuleScope))
    throw new CliError(
      `Unknown scope "${scope}".`,
      "Use --scope user (your settings, every project) or --scope personality (the project's default personality file).",
    );
  return scope as RuleScope;
}

/** The rules list of a settings or personality document: a list, or `{ add: [...] }`. */
function rulesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (value && typeof value === 'object' && Array.isArray((value as { add?: unknown }).add))
    return ((value as { add: unknown[] }).add ?? []).map(String);
  return [];
}

async function readYaml(file: string): Promise<Record<string, unknown>> {
  const { readFileSync } = await import('node:fs');
  const { parse } = await import('yaml');
  return (parse(readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
}

/** The default personality's own file (personalities/NAME.yaml beside quiver.yaml). */
async function personalityFile(command: Command): Promise<string> {
  const files = await projectSettingsFiles(globalOptions(command));
  const project = files.find((entry) => entry.scope === 'project');
  if (!project)
    throw new CliError(
      'There is no quiver.yaml here, so there is no project personality to change.',
      'Run `quiver init` first, or use --scope user.',
    );
  const config = await readYaml(project.file);
  const name = typeof config.defaultPersonality === 'string' ? config.defaultPersonality : 'default';
  return path.join(path.dirname(project.file), 'personalities', `${name}.yaml`);
}

async function listRules(command: Command): Promise<RuleEntry[]> {
  const entries: RuleEntry[] = [];
  const files = (await projectSettingsFiles(globalOptions(command))).filter(
    (entry) => entry.exists && (entry.scope === 'managed' || entry.scope === 'user'),
  );
  const sources = [...files.map((entry) => ({ scope: entry.scope as string, file: entry.file }))];
  const personality = await personalityFile(command).catch(() => undefined);
  if (personality && existsSync(personality)) sources.push({ scope: 'personality', file: personality });
  for (const { scope, file } of sources) {
    const permissions = ((await readYaml(file)).permissions ?? {}) as Record<string, unknown>;
    for (const behavior of BEHAVIORS)
      for (const rule of rulesIn(permissions[behavior])) entries.push({ scope, file, behavior, rule });
  }
  return entries;
}

/** A rule a person saved at a prompt ("always allow"): it holds for this project in every session. */
interface GrantEntry {
  scope: 'project';
  rule: string;
  /** The signed-in caller (of an authenticated serve) whose session asked for it. */
  caller?: string;
  /** Where it is kept: the project's permissions.db, or the PostgreSQL database replicas share. */
  store: string;
}

/**
 * Runs `use` with the project's saved grants and where they are kept; undefined when there is no
 * store yet and `create` is false (nothing was ever saved, and listing creates nothing).
 */
async function withProjectGrants<T>(
  command: Command,
  create: boolean,
  use: (grants: ProjectGrantStore, store: string) => Promise<T>,
): Promise<T | undefined> {
  const quiver = await openQuiver(globalOptions(command), {}, { quiet: true });
  try {
    const shared = quiver.host.options.sharedStorage?.projectGrants;
    if (shared) return await use(shared, 'PostgreSQL (shared by every replica of this project)');
    const { sqlite } = quiver.host.options;
    const file = path.join(quiver.host.dataDir, 'permissions.db');
    if (sqlite === undefined || (!create && !existsSync(file))) return undefined;
    const { openSqliteProjectGrants } = await import('@quiver/runtime');
    const grants = openSqliteProjectGrants(quiver.host.dataDir, sqlite);
    try {
      return await use(grants, file);
    } finally {
      await grants.close();
    }
  } finally {
    await quiver.close();
  }
}

async function listGrants(command: Command): Promise<GrantEntry[]> {
  const grants = await withProjectGrants(command, false, async (store, where) =>
    (await store.saved()).map((grant): GrantEntry => ({ scope: 'project', ...grant, store: where })),
  );
  return grants ?? [];
}

async function targetFile(command: Command, scope: RuleScope): Promise<string> {
  if (scope === 'personality') return personalityFile(command);
  const file = (await projectSettingsFiles(globalOptions(command))).find(
    (entry) => entry.scope === 'user',
  )?.file;
  if (!file)
    throw new CliError('No user settings file location could be found.', 'Set HOME or XDG_CONFIG_HOME.');
  return file;
}

export function registerPermissionsCommand(program: Command): void {
  const permissions = program
    .command('permissions')
    .description('List, add and remove permission rules in your settings or the project personality.');
  permissions
    .command('list')
    .description(
      'Every permission rule of the managed and user settings and the default personality, with its file, and the grants saved for this project at a prompt.',
    )
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) => {
      const rules = await listRules(command);
      const grants = await listGrants(command);
      if (options.json) {
        printJson({ rules, grants });
        return;
      }
      if (rules.length === 0)
        printLine('No permission rules are written in the settings or the default personality.');
      for (const entry of rules) {
        const paint =
          entry.behavior === 'deny' ? color.red : entry.behavior === 'ask' ? color.yellow : color.green;
        printLine(
          `${paint(entry.behavior.padEnd(5))} ${entry.rule}  ${color.dim(`[${entry.scope}] ${entry.file}`)}`,
        );
      }
      if (grants.length === 0) {
        printLine(color.dim('No grants are saved for this project.'));
        return;
      }
      printLine('Saved for this project at a prompt ("always allow"):');
      for (const grant of grants)
        printLine(
          `${color.green('grant')} ${grant.rule}${grant.caller === undefined ? '' : `  asked for by caller ${visibleText(grant.caller)}`}  ${color.dim(`[project grant] ${grant.store}`)}`,
        );
      printLine(color.dim('`quiver permissions remove grant RULE` takes one back.'));
    });
  permissions
    .command('add')
    .description('Add a rule: `quiver permissions add deny "terminal(rm:*)"` (checked before it is written).')
    .argument('<behavior>', 'allow | ask | deny')
    .argument('<rule>', 'ToolName or ToolName(specifier), e.g. terminal(git status:*)')
    .option(
      '--scope <scope>',
      'user (your settings, every project; default) | personality (the default personality file)',
    )
    .option('--json', 'machine-readable output')
    .action(
      async (
        behaviorText: string,
        rule: string,
        options: { scope?: string; json?: boolean },
        command: Command,
      ) => {
        refuseInsideQuiverTools('quiver permissions add');
        const behavior = behaviorOf(behaviorText);
        const scope = scopeOf(options.scope);
        const { checkPermissionRule } = await import('@quiver/permissions');
        try {
          checkPermissionRule(rule, behavior);
        } catch (error) {
          throw new CliError(
            `The rule ${JSON.stringify(rule)} does not parse: ${(error as Error).message}`,
            (error as { fix?: string }).fix ?? 'Write ToolName or ToolName(specifier).',
          );
        }
        const file = await targetFile(command, scope);
        const { isMap, isSeq } = await import('yaml');
        await editSettingsFile(
          file,
          (document) => {
            const data = (document.toJS() ?? {}) as { permissions?: Record<string, unknown> };
            if (rulesIn(data.permissions?.[behavior]).includes(rule))
              throw new CliError(
                `${file} already has the ${behavior} rule ${JSON.stringify(rule)}.`,
                'Nothing to add.',
              );
            const current = document.getIn(['permissions', behavior], true);
            if (isSeq(current)) current.add(rule);
            else if (isMap(current) && current.has('add'))
              document.addIn(['permissions', behavior, 'add'], rule);
            else document.setIn(['permissions', behavior], [rule]);
          },
          async (text) => {
            if (scope !== 'user') return;
            const { parse } = await import('yaml');
            const { personSettingsSchema } = await import('@quiver/plugin-host');
            const parsed = personSettingsSchema.safeParse(parse(text) ?? {});
            if (!parsed.success)
              throw new CliError(
                `${file} would not be valid: ${parsed.error.message}`,
                'Nothing was written.',
              );
          },
        );
        if (options.json) printJson({ scope, file, behavior, rule, added: true });
        else {
          printLine(`${color.green('added')} ${behavior} ${rule} to ${file} (${scope})`);
          if (scope === 'personality')
            printLine(color.dim('The project configuration changed: `quiver trust` reviews it.'));
        }
      },
    );
  permissions
    .command('remove')
    .description(
      'Remove a rule from your settings or the default personality file, or a grant saved for this project (`remove grant RULE`).',
    )
    .argument('<behavior>', 'allow | ask | deny, or grant for a saved grant')
    .argument('<rule>', 'the rule as written (as `quiver permissions list` shows it)')
    .option('--scope <scope>', 'user (default) | personality')
    .option('--json', 'machine-readable output')
    .action(
      async (
        behaviorText: string,
        rule: string,
        options: { scope?: string; json?: boolean },
        command: Command,
      ) => {
        refuseInsideQuiverTools('quiver permissions remove');
        if (behaviorText === 'grant') {
          await removeGrant(command, rule, options.json === true);
          return;
        }
        const behavior = behaviorOf(behaviorText);
        const scope = scopeOf(options.scope);
        const file = await targetFile(command, scope);
        if (!existsSync(file))
          throw new CliError(
            `${file} does not exist; nothing was changed.`,
            '`quiver permissions list` shows the rules.',
          );
        await editSettingsFile(
          file,
          (document) => {
            const at = document.hasIn(['permissions', behavior, 'add'])
              ? ['permissions', behavior, 'add']
              : ['permissions', behavior];
            const node = document.getIn(at) as { items?: Array<{ value?: unknown }> } | undefined;
            const index = node?.items?.findIndex((item) => String(item?.value ?? item) === rule) ?? -1;
            if (index < 0)
              throw new CliError(
                `${file} has no ${behavior} rule ${JSON.stringify(rule)}; nothing was changed.`,
                '`quiver permissions list` shows the rules and their files.',
              );
            document.deleteIn([...at, index]);
          },
          () => {},
        );
        if (options.json) printJson({ scope, file, behavior, rule, removed: true });
        else printLine(`${color.green('removed')} ${behavior} ${rule} from ${file} (${scope})`);
      },
    );
}

async function removeGrant(command: Command, rule: string, json: boolean): Promise<void> {
  const removed = await withProjectGrants(command, false, async (grants, store) => {
    const saved = await grants.list();
    if (!(await grants.remove(rule))) {
      const { didYouMean } = await import('@quiver/plugin-host');
      const suggestion = didYouMean(rule, [...saved]);
      throw new CliError(
        `No grant ${JSON.stringify(rule)} is saved for this project; nothing was changed.`,
        suggestion
          ? `Did you mean ${JSON.stringify(suggestion)}?`
          : saved.length > 0
            ? `The saved grants are: ${saved.join(', ')}.`
            : 'No grant is saved for this project.',
      );
    }
    return store;
  });
  if (removed === undefined)
    throw new CliError(
      `No grant ${JSON.stringify(rule)} is saved for this project; nothing was changed.`,
      'No grant is saved for this project.',
    );
  if (json) printJson({ scope: 'project', rule, store: removed, removed: true });
  else printLine(`${color.green('removed')} grant ${rule} from ${removed} (project)`);
}
