import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkPermissionRule } from '@quiver/permissions';
import { type PermissionBehavior, type PermissionKind, QuiverError } from '@quiver/types';
import { type DroppedListItem, mergeLayers, type UnmatchedRemoval } from '../config/merge-layers.js';
import { type KeyLocation, keyLocationText, parseLocatedYaml } from '../config/yaml-locations.js';
import { type PersonalityIssue, personalityIssues } from './personality-issues.js';
import {
  PERSONALITY_DEFAULTS,
  PERSONALITY_LISTS,
  type Personality,
  type PersonalityFile,
  personalitySchema,
} from './personality-schema.js';

export interface PersonalitySearchOptions {
  /** Directories whose `personalities/NAME.yaml` (or `.yml`) define personalities by name, first match wins. */
  searchDirs: readonly string[];
  /** Personalities available by name without a file; files of the same name take precedence. */
  embedded?: Record<string, unknown>;
  /**
   * The kinds of the tools loaded (`grep_search` is a read tool): a rule naming one is parsed as
   * that kind's resource when the file is read, so that an ask or allow on a tool whose name
   * alone does not tell its kind fails here, with its file and line, and not at its first call.
   */
  toolKinds?: ReadonlyMap<string, PermissionKind>;
}

/** One validated personality file or embedded entry, before `extends` is followed. */
interface PersonalitySource {
  /** A file path, or `embedded:NAME`. */
  source: string;
  /** Where a relative `extends` path starts; undefined for embedded personalities (the working directory). */
  directory: string | undefined;
  defaultId: string;
  data: PersonalityFile;
  /** The line a key path is written on, for files. */
  locate?: (keyPath: readonly (string | number)[]) => KeyLocation | undefined;
}

/** A resolved personality with what its `extends` chain left out on the way. */
export interface PersonalityInheritance {
  personality: Personality;
  /** Inherited list items (rules, plugins, tools) a child replaced away or removed. */
  dropped: DroppedListItem[];
  /** `remove` entries that named nothing inherited. */
  unmatchedRemovals: UnmatchedRemoval[];
}

const EXTENSIONS = ['.yaml', '.yml'] as const;

/** True when `reference` is a path rather than a personality name. */
function isPathReference(reference: string): boolean {
  return (
    reference.includes('/') ||
    reference.includes('\\') ||
    EXTENSIONS.some((extension) => reference.endsWith(extension))
  );
}

/** The personality a name or a path refers to, with its `extends` chain merged and defaults applied. */
export function resolvePersonality(nameOrPath: string, options: PersonalitySearchOptions): Personality {
  return resolvePersonalityInheritance(nameOrPath, options).personality;
}

/** Like `resolvePersonality`, with what each child dropped from what it inherits. */
export function resolvePersonalityInheritance(
  nameOrPath: string,
  options: PersonalitySearchOptions,
): PersonalityInheritance {
  const first = isPathReference(nameOrPath)
    ? readPersonalityFile(path.resolve(nameOrPath), { toolKinds: options.toolKinds })
    : findByName(nameOrPath, options, [], undefined);
  return resolveChain(first, options);
}

/** Loads the personality file at `file` and follows its `extends` chain. */
export function loadPersonalityFile(file: string, options: PersonalitySearchOptions): Personality {
  return resolveChain(readPersonalityFile(path.resolve(file), { toolKinds: options.toolKinds }), options)
    .personality;
}

function resolveChain(first: PersonalitySource, options: PersonalitySearchOptions): PersonalityInheritance {
  const chain: PersonalitySource[] = [first];
  for (let current = first; current.data.extends !== undefined; ) {
    const reference = current.data.extends;
    const visited = chain.map((entry) => entry.source);
    let parent: PersonalitySource;
    if (isPathReference(reference)) {
      const file = path.resolve(current.directory ?? process.cwd(), reference);
      if (visited.includes(file)) throw cycleError([...visited, file]);
      parent = readPersonalityFile(file, { from: current.source, toolKinds: options.toolKinds });
    } else {
      parent = findByName(reference, options, visited, current.source);
    }
    chain.push(parent);
    current = parent;
  }
  const merged = mergeLayers(
    [...chain].reverse().map((entry) => ({
      source: entry.source,
      data: entry.data,
      ...(entry.locate ? { locate: entry.locate } : {}),
    })),
    PERSONALITY_LISTS,
  );
  // The id is the asked-for personality's own, never inherited. Lists are plain lists once merged.
  const {
    extends: _followed,
    id: _inheritedId,
    ...settings
  } = personalitySchema.parse(merged.data) as MergedPersonalityFile;
  const ownId = first.data.id ?? first.defaultId;
  const defaults = structuredClone(PERSONALITY_DEFAULTS);
  const personality = {
    ...defaults,
    ...settings,
    ...pluginEntries(settings.plugins),
    id: ownId,
    permissions: { ...defaults.permissions, ...settings.permissions },
    budget: { ...defaults.budget, ...settings.budget },
    deferLoading: { ...defaults.deferLoading, ...settings.deferLoading },
    log: { ...defaults.log, ...settings.log },
    sources: chain.map((entry) => entry.source),
  } as Personality;
  return { personality, dropped: merged.dropped, unmatchedRemovals: merged.unmatchedRemovals };
}

type PluginEntry = string | { id: string; config?: Record<string, unknown> | undefined };

/** A personality's data once its chain is merged: every list a plain list. */
type MergedPersonalityFile = Omit<PersonalityFile, 'plugins'> & { plugins?: PluginEntry[] };

/** `plugins` as ids, and the settings the `{ id, config }` entries give. */
function pluginEntries(
  entries: PluginEntry[] | undefined,
): Pick<Personality, 'plugins' | 'pluginConfig'> | undefined {
  if (entries === undefined) return undefined;
  const pluginConfig: Personality['pluginConfig'] = {};
  const plugins = entries.map((entry) => {
    if (typeof entry === 'string') return entry;
    if (entry.config !== undefined)
      Object.defineProperty(pluginConfig, entry.id, {
        value: entry.config,
        enumerable: true,
        writable: true,
      });
    return entry.id;
  });
  return { plugins: [...new Set(plugins)], pluginConfig };
}

/**
 * The first `personalities/NAME.yaml|yml` of the search dirs, then the embedded one. Candidates
 * already in the `extends` chain are skipped, so `personalities/default.yaml` may say
 * `extends: default` to build on the embedded default; a name with no other candidate left is a cycle.
 */
function findByName(
  name: string,
  options: PersonalitySearchOptions,
  visited: readonly string[],
  from: string | undefined,
): PersonalitySource {
  const searched: string[] = [];
  let skipped: string | undefined;
  for (const directory of options.searchDirs) {
    for (const extension of EXTENSIONS) {
      const file = path.resolve(directory, 'personalities', `${name}${extension}`);
      searched.push(file);
      if (!existsSync(file)) continue;
      if (visited.includes(file)) {
        skipped ??= file;
        continue;
      }
      return readPersonalityFile(file, { from, toolKinds: options.toolKinds });
    }
  }
  const embeddedSource = `embedded:${name}`;
  const embedded =
    options.embedded !== undefined && Object.hasOwn(options.embedded, name)
      ? options.embedded[name]
      : undefined;
  if (embedded !== undefined) {
    if (!visited.includes(embeddedSource))
      return validateSource(embedded, embeddedSource, undefined, name, undefined, options.toolKinds);
    skipped ??= embeddedSource;
  }
  if (skipped !== undefined) throw cycleError([...visited, skipped]);
  const referrer = from === undefined ? '' : ` (extended by ${from})`;
  const embeddedNames = Object.keys(options.embedded ?? {});
  throw new QuiverError(
    'config_not_found',
    `Personality "${name}"${referrer} was not found. Looked in:\n${searched.map((file) => `  - ${file}`).join('\n')}${embeddedNames.length > 0 ? `\n  - embedded personalities: ${embeddedNames.join(', ')}` : ''}`,
    {
      fix: `Create personalities/${name}.yaml in one of those directories, or name an existing personality.`,
      details: { name, searched, from },
    },
  );
}

interface ReadContext {
  from?: string | undefined;
  toolKinds?: ReadonlyMap<string, PermissionKind> | undefined;
}

function readPersonalityFile(file: string, context: ReadContext = {}): PersonalitySource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const referrer = context.from === undefined ? '' : ` (extended by ${context.from})`;
    throw new QuiverError(
      'config_not_found',
      `Personality file ${file}${referrer} could not be read: ${(error as Error).message}`,
      {
        fix: 'Check the path; a relative `extends` path starts at the directory of the file that extends it.',
        details: { file, from: context.from },
        cause: error,
      },
    );
  }
  // The one reader of located YAML (quiver.yaml's too): a key's own line and column, else the
  // deepest part of its path that is written (the list holding a bad item).
  const located = parseLocatedYaml(text);
  if (located.syntaxError) {
    throw new QuiverError(
      'config_invalid',
      `${keyLocationText(file, located.syntaxError.location)}: not valid YAML: ${located.syntaxError.message}`,
      { fix: 'Fix the YAML syntax at the line and column shown.', details: { file } },
    );
  }
  const defaultId = path.basename(file).replace(/\.ya?ml$/, '');
  return validateSource(
    located.data ?? {},
    file,
    path.dirname(file),
    defaultId,
    located.locate,
    context.toolKinds,
  );
}

function validateSource(
  raw: unknown,
  source: string,
  directory: string | undefined,
  defaultId: string,
  locate?: PersonalitySource['locate'],
  toolKinds?: ReadonlyMap<string, PermissionKind>,
): PersonalitySource {
  const parsed = personalitySchema.safeParse(raw);
  const located = (issue: PersonalityIssue): PersonalityIssue => {
    const location = locate?.(issue.path);
    return location === undefined ? issue : { ...issue, line: location.line, column: location.column };
  };
  if (!parsed.success)
    throw invalidError(source, personalityIssues(parsed.error, personalitySchema).map(located));
  const ruleIssues = toolKinds === undefined ? [] : ruleKindIssues(parsed.data, toolKinds);
  if (ruleIssues.length > 0) throw invalidError(source, ruleIssues.map(located));
  return { source, directory, defaultId, data: parsed.data, ...(locate ? { locate } : {}) };
}

const BEHAVIORS: readonly PermissionBehavior[] = ['allow', 'ask', 'deny'];

/**
 * The rules of a file parsed again with the loaded tools' kinds: the schema alone reads a rule by
 * its tool's conventional name, and leaves an ask or allow on any other tool unparsed.
 */
function ruleKindIssues(
  data: PersonalityFile,
  toolKinds: ReadonlyMap<string, PermissionKind>,
): PersonalityIssue[] {
  const issues: PersonalityIssue[] = [];
  for (const behavior of BEHAVIORS) {
    const written = data.permissions?.[behavior];
    if (written === undefined) continue;
    const [rules, prefix]: [readonly string[], Array<string | number>] = Array.isArray(written)
      ? [written, ['permissions', behavior]]
      : [written.add ?? [], ['permissions', behavior, 'add']];
    rules.forEach((rule, index) => {
      try {
        checkPermissionRule(rule, behavior, toolKinds);
      } catch (error) {
        const fix = (error as { fix?: string }).fix;
        const rulePath = [...prefix, index];
        issues.push({
          keyPath: rulePath.join('.'),
          path: rulePath,
          message: `${(error as Error).message}${fix ? ` Fix: ${fix}` : ''}`,
        });
      }
    });
  }
  return issues;
}

function invalidError(source: string, issues: PersonalityIssue[]): QuiverError {
  const lines = issues
    .map(
      (issue) =>
        `  - ${issue.line === undefined ? '' : `${source}:${issue.line}:${issue.column ?? 1}: `}${issue.keyPath}: ${issue.message}`,
    )
    .join('\n');
  const unknownKey = issues.find((issue) => issue.unknownKey !== undefined)?.unknownKey;
  return new QuiverError('config_invalid', `Personality ${source} is invalid:\n${lines}`, {
    fix: unknownKey
      ? unknownKey.suggestion !== undefined
        ? `Rename ${unknownKey.keyPath} to "${unknownKey.suggestion}" in ${source}.`
        : `Remove ${unknownKey.keyPath} from ${source}${unknownKey.allowed.length > 0 ? `; the keys allowed there are ${unknownKey.allowed.join(', ')}` : ''}.`
      : `Correct the values at the key paths above in ${source}.`,
    details: { file: source, issues },
  });
}

function cycleError(chain: readonly string[]): QuiverError {
  return new QuiverError('config_invalid', `Personality extends chain has a cycle: ${chain.join(' → ')}`, {
    fix: `Remove the \`extends\` in ${chain[chain.length - 2]} or point it at a personality outside the cycle.`,
    details: { chain },
  });
}
