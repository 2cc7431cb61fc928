import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { REPO, tempDir, write } from './helpers.js';
import { textOf } from './serve-fixtures.js';

/** The 27 real tool catalogs (598 tools) shared by every session of the project. */
export const CATALOGS = path.resolve(REPO, '../shared/data/mcp-catalogs');
const CATALOG_SERVER = path.join(REPO, 'apps/cli/test/fixtures/catalog-server.mjs');
export const FIRST_PARTY_PLUGINS = [
  'tools-terminal',
  'tools-code',
  'tools-kanban',
  'tools-memory',
  'mcp-bridge',
];

export function catalogServers(): string[] {
  return readdirSync(CATALOGS)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/**
 * A workspace whose quiver.yaml configures one stub server per catalog file and whose `catalog`
 * personality enables every first-party plugin and `servers` (default: all 27), with `extra`
 * appended to the personality (permissions, deferLoading, …).
 */
export function catalogWorkspace(options: { servers?: string[]; personality?: string } = {}): {
  dir: string;
  cleanup: () => void;
} {
  const servers = options.servers ?? catalogServers();
  const { dir, cleanup } = tempDir('quiver-serve-catalog-');
  const configured = servers.flatMap((server) => [
    `  ${server}:`,
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(CATALOG_SERVER)}, ${JSON.stringify(path.join(CATALOGS, `${server}.json`))}]`,
    '    connectTimeoutMs: 240000',
  ]);
  write(
    path.join(dir, 'quiver.yaml'),
    ['defaultPersonality: catalog', 'mcpServers:', ...configured, ''].join('\n'),
  );
  write(
    path.join(dir, 'personalities/catalog.yaml'),
    [
      'id: catalog',
      `plugins: [${FIRST_PARTY_PLUGINS.join(', ')}]`,
      'mcpServers:',
      ...servers.map((server) => `  ${server}: true`),
      options.personality ?? '',
      '',
    ].join('\n'),
  );
  write(path.join(dir, 'README.md'), '# Catalog workspace\n');
  return { dir, cleanup };
}

/**
 * Request options for a serve process that is still connecting 27 servers: on a loaded two-core
 * machine that takes minutes, not the SDK's default 60 s.
 */
export const PATIENT = { timeout: 240_000 };

/** tool_search through the client: the names of the definitions it returned. */
export async function searchTools(client: Client, query: string, limit = 5): Promise<string[]> {
  const result = await client.callTool({ name: 'tool_search', arguments: { query, limit } }, PATIENT);
  if (result.isError) throw new Error(`tool_search failed: ${textOf(result)}`);
  if (textOf(result).startsWith('No tools match')) return [];
  // The answer names each tool at the start of a line: `<name> — <description>`.
  return [...textOf(result).matchAll(/^(\S+) — /gm)].map((match) => match[1] as string);
}

/** Waits until tool_search finds a tool of each server: servers connect on their own time. */
export async function untilServersConnected(
  client: Client,
  servers: string[],
  timeoutMs = 240_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(servers);
  while (pending.size > 0) {
    for (const server of [...pending])
      if ((await searchTools(client, `/^mcp__${server}__/`, 1)).length > 0) pending.delete(server);
    if (pending.size === 0) return;
    if (Date.now() > deadline) throw new Error(`servers never connected: ${[...pending].join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Estimated tokens of listed MCP tools, as `quiver tools` estimates them: characters / 4. */
export function estimatedTokens(
  tools: Array<{ name: string; description?: string; inputSchema: unknown }>,
): number {
  let characters = 0;
  for (const tool of tools)
    characters += JSON.stringify({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
    }).length;
  return Math.ceil(characters / 4);
}
