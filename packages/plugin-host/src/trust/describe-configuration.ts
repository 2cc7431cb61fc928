import { isDeepStrictEqual } from 'node:util';
import { printable } from './printable.js';
import type { ProjectConfiguration } from './project-configuration.js';

function list(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}

function describeServer(server: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof server.url === 'string') parts.push(server.url);
  else parts.push([server.command, ...(Array.isArray(server.args) ? server.args : [])].map(String).join(' '));
  if (typeof server.cwd === 'string') parts.push(`in ${server.cwd}`);
  const env = Object.keys((server.env as Record<string, unknown> | undefined) ?? {});
  if (env.length > 0) parts.push(`env ${env.join(', ')}`);
  const headers = Object.keys((server.headers as Record<string, unknown> | undefined) ?? {});
  if (headers.length > 0) parts.push(`headers ${headers.join(', ')}`);
  if (server.disabled === true) parts.push('(disabled)');
  return parts.join(' · ');
}

/**
 * What a configuration would start and allow, for a person deciding whether to trust it:
 * servers with their commands, plugins, plugin config, and per personality the plugins and
 * servers it enables, its allow rules, sandbox mode and secret grants. Personalities that are
 * the baseline's unchanged (the embedded ones) are left out. With `sources`, each personality
 * also names the files it is read from, those it extends included: what the person trusts.
 */
export function describeProjectConfiguration(
  configuration: ProjectConfiguration,
  baseline?: ProjectConfiguration,
  sources?: Readonly<Record<string, readonly string[]>>,
): string[] {
  const { config } = configuration;
  const lines: string[] = [];
  const servers = Object.entries(config.mcpServers);
  lines.push(`MCP servers it can start:${servers.length === 0 ? ' none' : ''}`);
  for (const [name, server] of servers) lines.push(`  - ${name}: ${describeServer(server)}`);
  lines.push(`Plugins it loads (their code runs in Quiver): ${list(config.plugins)}`);
  for (const [id, settings] of Object.entries(config.pluginConfig)) {
    lines.push(`Plugin config of ${id}: ${JSON.stringify(settings)}`);
  }
  lines.push('Hook scripts: none (hooks come only from plugins)');
  if (config.workspace !== '.') lines.push(`Workspace: ${config.workspace}`);
  if (config.dataDir !== '.quiver') lines.push(`Data directory: ${config.dataDir}`);
  lines.push(`Default personality: ${config.defaultPersonality}`);
  for (const [key, personality] of Object.entries(configuration.personalities)) {
    if (baseline && isDeepStrictEqual(baseline.personalities[key], personality)) continue;
    lines.push(`Personality ${key}:`);
    const files = sources?.[key] ?? [];
    if (files.length > 1 || (files.length === 1 && files[0] !== key))
      lines.push(`  read from: ${files.join(' ← extends ')}`);
    lines.push(`  plugins: ${list(personality.plugins)}`);
    lines.push(`  MCP servers: ${list(Object.keys(personality.mcpServers))}`);
    lines.push(`  allow: ${list(personality.permissions.allow)}`);
    lines.push(`  sandbox: ${personality.sandbox}`);
    const secrets = Object.entries(personality.secrets).map(
      ([tool, names]) => `${tool}: ${names.join(', ')}`,
    );
    lines.push(`  secrets: ${secrets.length === 0 ? 'none' : secrets.join('; ')}`);
  }
  return lines.map(printable);
}
