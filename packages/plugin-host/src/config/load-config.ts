import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { QuiverError } from '@quiver/types';
import { parse as parseYaml } from 'yaml';
import { type QuiverConfig, type QuiverConfigInput, quiverConfigSchema } from './config-schema.js';
import { formatZodIssues } from './format-issues.js';

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

export function parseConfig(input: unknown, source: string): QuiverConfig {
  const parsed = quiverConfigSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new QuiverError(
      'config_invalid',
      `${source} is not a valid Quiver config:\n${formatZodIssues(parsed.error, quiverConfigSchema)}`,
      {
        fix: 'Correct the keys listed above (see docs/personality-reference.md and `quiver init` for a commented example).',
        details: { file: source },
      },
    );
  }
  return parsed.data;
}

export function loadConfigFile(file: string): QuiverConfig {
  if (!existsSync(file)) {
    throw new QuiverError('config_not_found', `Config file ${file} does not exist.`, {
      fix: 'Create one with `quiver init`, or pass the right path.',
    });
  }
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new QuiverError('config_invalid', `${file} is not valid YAML: ${(error as Error).message}`, {
      fix: 'Fix the YAML syntax at the line shown.',
      cause: error,
    });
  }
  return parseConfig(raw, file);
}

export type { QuiverConfigInput };
