import { isDeepStrictEqual } from 'node:util';
import type { QuiverConfig } from '../config/config-schema.js';
import { comparePersonality } from './compare-personality.js';
import { ChangeLog, type ConfigurationChange } from './configuration-change.js';
import {
  emptyPersonality,
  type PersonalitySettings,
  type ProjectConfiguration,
} from './project-configuration.js';

export interface ConfigurationComparison {
  /** Every difference, in configuration order. */
  changes: ConfigurationChange[];
  /** The differences that wait for `quiver trust`. */
  widening: ConfigurationChange[];
  /** The differences that apply at once. */
  narrowing: ConfigurationChange[];
  /** The trusted configuration with the narrowing differences applied: what Quiver runs with. */
  effective: ProjectConfiguration;
}

/** Server settings that only pick which of its tools show, or when to give up on it. */
const SERVER_FILTER_KEYS = [
  'includeTools',
  'excludeTools',
  'disabled',
  'connectTimeoutMs',
  'callTimeoutMs',
  'maxCallTimeoutMs',
];

function withoutFilters(server: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(server).filter(([key]) => !SERVER_FILTER_KEYS.includes(key)));
}

function asStrings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

/** A server entry changed only by hiding tools or disabling it, with how it runs untouched. */
function serverNarrows(trusted: Record<string, unknown>, current: Record<string, unknown>): boolean {
  if (!isDeepStrictEqual(withoutFilters(trusted), withoutFilters(current))) return false;
  const includeBefore = asStrings(trusted.includeTools);
  const includeAfter = asStrings(current.includeTools);
  const includeNarrows =
    includeBefore === undefined || includeAfter?.every((tool) => includeBefore.includes(tool)) === true;
  const excludeAfter = asStrings(current.excludeTools) ?? [];
  const excludeNarrows = (asStrings(trusted.excludeTools) ?? []).every((tool) => excludeAfter.includes(tool));
  const stillDisabled = trusted.disabled !== true || current.disabled === true;
  const timeoutsSame = ['connectTimeoutMs', 'callTimeoutMs', 'maxCallTimeoutMs'].every(
    (key) => trusted[key] === current[key] || (current[key] as number) < (trusted[key] as number),
  );
  return includeNarrows && excludeNarrows && stillDisabled && timeoutsSame;
}

function describeServer(server: Record<string, unknown>): string {
  if (typeof server.url === 'string') return server.url;
  return [server.command, ...(asStrings(server.args) ?? [])].filter((part) => part !== undefined).join(' ');
}

function compareConfig(trusted: QuiverConfig, current: QuiverConfig, log: ChangeLog): QuiverConfig {
  const effective = structuredClone(current);
  // Where Quiver works and keeps its data, and which personality it picks, widen by moving.
  effective.workspace = log.value('workspace', trusted.workspace, current.workspace, 'widening');
  effective.dataDir = log.value('dataDir', trusted.dataDir, current.dataDir, 'widening');
  effective.defaultPersonality = log.value(
    'defaultPersonality',
    trusted.defaultPersonality,
    current.defaultPersonality,
    'widening',
  );
  effective.plugins = log.list('plugins', trusted.plugins, current.plugins, 'widening');

  const pluginConfig: QuiverConfig['pluginConfig'] = {};
  for (const id of new Set([...Object.keys(trusted.pluginConfig), ...Object.keys(current.pluginConfig)])) {
    const before = Object.hasOwn(trusted.pluginConfig, id) ? trusted.pluginConfig[id] : undefined;
    const after = Object.hasOwn(current.pluginConfig, id) ? current.pluginConfig[id] : undefined;
    const kept = log.value(`pluginConfig.${id}`, before, after, 'widening', 'changes the plugin config');
    if (kept !== undefined) pluginConfig[id] = kept;
  }
  effective.pluginConfig = pluginConfig;

  const servers: QuiverConfig['mcpServers'] = {};
  for (const [name, server] of Object.entries(current.mcpServers)) {
    const before = Object.hasOwn(trusted.mcpServers, name) ? trusted.mcpServers[name] : undefined;
    if (before === undefined) {
      log.add('widening', `mcpServers.${name}`, `adds the MCP server (${describeServer(server)})`);
    } else if (isDeepStrictEqual(before, server)) {
      servers[name] = server;
    } else if (serverNarrows(before, server)) {
      log.add('narrowing', `mcpServers.${name}`, 'hides tools of the MCP server or disables it');
      servers[name] = server;
    } else {
      log.add(
        'widening',
        `mcpServers.${name}`,
        `changes how the MCP server runs (${describeServer(server)})`,
      );
      servers[name] = structuredClone(before);
    }
  }
  for (const name of Object.keys(trusted.mcpServers)) {
    if (!Object.hasOwn(current.mcpServers, name))
      log.add('narrowing', `mcpServers.${name}`, 'removes the MCP server');
  }
  effective.mcpServers = servers;
  return effective;
}

/**
 * The effective personality for `current`: compared with the trusted personality of the same
 * key, or with one that allows nothing when the trusted configuration did not have it.
 */
export function narrowPersonality(
  trusted: PersonalitySettings | undefined,
  current: PersonalitySettings,
  log = new ChangeLog(),
): PersonalitySettings {
  if (trusted === undefined) log.add('widening', '', 'is a personality that was not trusted');
  return comparePersonality(trusted ?? emptyPersonality(current.id), current, log);
}

/**
 * Classifies every difference between a trusted configuration and the current one: widening
 * (a new server or plugin, a changed server command, a new allow rule, a removed deny or ask
 * rule, a weaker sandbox, a new secret grant, changed plugin config) or narrowing (the rest).
 */
export function compareConfigurations(
  trusted: ProjectConfiguration,
  current: ProjectConfiguration,
): ConfigurationComparison {
  const log = new ChangeLog();
  const config = compareConfig(trusted.config, current.config, log);
  const personalities: Record<string, PersonalitySettings> = {};
  for (const [key, personality] of Object.entries(current.personalities)) {
    const before = Object.hasOwn(trusted.personalities, key) ? trusted.personalities[key] : undefined;
    personalities[key] = narrowPersonality(before, personality, log.scoped(`personality ${key}: `));
  }
  for (const key of Object.keys(trusted.personalities)) {
    if (!Object.hasOwn(current.personalities, key)) log.add('narrowing', `personality ${key}`, 'is gone');
  }
  const { changes } = log;
  return {
    changes,
    widening: changes.filter((change) => change.kind === 'widening'),
    narrowing: changes.filter((change) => change.kind === 'narrowing'),
    effective: { config, personalities },
  };
}
