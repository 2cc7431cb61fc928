import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { QuiverError } from '@quiver/types';
import { type QuiverConfig, type QuiverConfigInput, quiverConfigSchema } from './config-schema.js';
import { formatZodIssues } from './format-issues.js';
import { localConfigFile, mergeLocalConfig } from './settings-layers.js';
import { type KeyLocation, keyLocationText, parseLocatedYaml } from './yaml-locations.js';

export const CONFIG_FILE_NAMES = ['quiver.yaml', 'quiver.yml'] as const;

/** Finds quiver.yaml from `startDir` upward; undefined when there is none. */
export function findConfigFile(startDir: string): string | undefined {
  let dir = path.resolve(startDir);
  for (;;) {
    for (const name of CONFIG_FILE_NAMES) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function parseConfig(
  input: unknown,
  source: string,
  locate?: (keyPath: readonly PropertyKey[]) => KeyLocation | undefined,
): QuiverConfig {
  const parsed = quiverConfigSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const at = locate
      ? (keyPath: readonly PropertyKey[]) => keyLocationText(source, locate(keyPath))
      : undefined;
    throw new QuiverError(
      'config_invalid',
      `${source} is not a valid Quiver config:\n${formatZodIssues(parsed.error, quiverConfigSchema, at)}`,
      {
        fix: 'Correct the keys listed above (see docs/personality-reference.md and `quiver init` for a commented example).',
        details: { file: source },
      },
    );
  }
  return parsed.data;
}

/**
 * Reads quiver.yaml, with quiver.local.yaml beside it under it (each checked on its own, so that
 * an error names the file and line it is in).
 */
export function loadConfigFile(file: string): QuiverConfig {
  if (!existsSync(file)) {
    throw new QuiverError('config_not_found', `Config file ${file} does not exist.`, {
      fix: 'Create one with `quiver init`, or pass the right path.',
    });
  }
  const project = readLayer(file);
  const localFile = localConfigFile(file);
  const local = existsSync(localFile) ? readLayer(localFile) : undefined;
  if (local === undefined) return project.config;
  return parseConfig(mergeLocalConfig(project, local), `${file} with ${localFile}`);
}

function readLayer(file: string): { file: string; raw: Record<string, unknown>; config: QuiverConfig } {
  const located = parseLocatedYaml(readFileSync(file, 'utf8'));
  if (located.syntaxError) {
    throw new QuiverError(
      'config_invalid',
      `${keyLocationText(file, located.syntaxError.location)}: not valid YAML: ${located.syntaxError.message}`,
      { fix: 'Fix the YAML syntax at the line shown.', details: { file } },
    );
  }
  const raw = (located.data ?? {}) as Record<string, unknown>;
  return { file, raw, config: parseConfig(raw, file, located.locate) };
}

export type { QuiverConfigInput };

/** `file:line:column` of a key path of a config file (the file alone when the key is not there). */
export function configKeyLocation(file: string, keyPath: readonly PropertyKey[]): string {
  try {
    return keyLocationText(file, parseLocatedYaml(readFileSync(file, 'utf8')).locate(keyPath));
  } catch {
    return file;
  }
}
