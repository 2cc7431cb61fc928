import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { QuiverConfig } from '../config/config-schema.js';
import { parseConfig } from '../config/load-config.js';
import { type Personality, resolvePersonality } from '../personality/index.js';
import { PERSONALITY_DEFAULTS } from '../personality/personality-schema.js';

/** A resolved personality as trust sees it: where it came from is not part of what it allows. */
export type PersonalitySettings = Omit<Personality, 'sources'>;

/**
 * Everything a project configuration decides: quiver.yaml (defaults applied) and every
 * personality it can select, resolved through `extends`, by name (or absolute path).
 */
export interface ProjectConfiguration {
  config: QuiverConfig;
  personalities: Record<string, PersonalitySettings>;
}

export interface ReadProjectConfigurationOptions {
  config: QuiverConfig;
  /** Directories whose `personalities/` hold personality files, first match wins. */
  searchDirs: readonly string[];
  embedded: Record<string, unknown>;
  /** Further personalities to include: names or paths (e.g. the one named on the command line). */
  references?: readonly string[];
}

/** The key a personality reference is recorded under: its name, or the absolute path of a file. */
export function personalityKey(reference: string): string {
  const isPath =
    reference.includes('/') ||
    reference.includes('\\') ||
    reference.endsWith('.yaml') ||
    reference.endsWith('.yml');
  return isPath ? path.resolve(reference) : reference;
}

export function personalitySettings(personality: Personality): PersonalitySettings {
  const { sources: _sources, ...settings } = personality;
  return structuredClone(settings);
}

/** A personality that enables and allows nothing: what an unknown personality is compared against. */
export function emptyPersonality(id: string): PersonalitySettings {
  return { ...structuredClone(PERSONALITY_DEFAULTS), id };
}

function personalityNames(searchDirs: readonly string[]): string[] {
  const names = new Set<string>();
  for (const directory of searchDirs) {
    const folder = path.join(directory, 'personalities');
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder)) {
      if (/\.ya?ml$/.test(entry)) names.add(entry.replace(/\.ya?ml$/, ''));
    }
  }
  return [...names];
}

/**
 * Reads what a configuration would select: every personality file found, every embedded
 * personality and the extra references. A personality that does not resolve is left out and
 * reported in `errors`; using it fails later with its own message.
 */
export function readProjectConfiguration(options: ReadProjectConfigurationOptions): {
  configuration: ProjectConfiguration;
  sources: string[];
  /** The files of each personality's `extends` chain, by key. */
  sourcesOf: Record<string, string[]>;
  errors: Error[];
} {
  const references = new Set([
    ...Object.keys(options.embedded),
    ...personalityNames(options.searchDirs),
    options.config.defaultPersonality,
    ...(options.references ?? []),
  ]);
  const personalities: Record<string, PersonalitySettings> = {};
  const sources = new Set<string>();
  const sourcesOf: Record<string, string[]> = {};
  const errors: Error[] = [];
  for (const reference of references) {
    try {
      const personality = resolvePersonality(reference, {
        searchDirs: options.searchDirs,
        embedded: options.embedded,
      });
      const files = personality.sources.filter((source) => !source.startsWith('embedded:'));
      personalities[personalityKey(reference)] = personalitySettings(personality);
      sourcesOf[personalityKey(reference)] = files;
      for (const source of files) sources.add(source);
    } catch (error) {
      errors.push(error as Error);
    }
  }
  return {
    configuration: { config: structuredClone(options.config), personalities },
    sources: [...sources],
    sourcesOf,
    errors,
  };
}

/** What Quiver runs with when no project configuration is trusted: the given config and the embedded personalities. */
export function baselineConfiguration(
  embedded: Record<string, unknown>,
  config: QuiverConfig = parseConfig({}, 'baseline'),
): ProjectConfiguration {
  return readProjectConfiguration({ config, searchDirs: [], embedded }).configuration;
}
