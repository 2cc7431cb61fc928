import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry } from '@quiver/core';
import { type CapabilityBackendRegistry, ok, type Tool, type ToolAnnotations } from '@quiver/types';
import { z } from 'zod';
import type { ExternalToolDefinition, SessionDeps, SessionPolicy } from '../src/contracts.js';
import { DefaultHookRegistry } from '../src/lifecycle/hook-registry.js';
import { providerToolName } from '../src/providers/provider-names.js';

export function builtInTool(name: string, extra: Partial<Tool> = {}): Tool {
  return {
    name,
    description: `The ${name.replace(/_/g, ' ')} tool.`,
    input: z.object({ value: z.string().optional() }),
    capabilities: {},
    execute: (args) => ok(`${name} ran with ${JSON.stringify(args)}`),
    ...extra,
  };
}

export function mcpTool(
  server: string,
  originalName: string,
  extra: { description?: string; schema?: Record<string, unknown>; annotations?: ToolAnnotations } = {},
): Tool {
  const full = `mcp__${server}__${originalName}`;
  const tool: Tool = {
    name: providerToolName(full, 'openai', 64),
    description: extra.description ?? `${originalName} on ${server}.`,
    input: z.record(z.string(), z.unknown()),
    parametersJsonSchema: extra.schema ?? { type: 'object', properties: {} },
    capabilities: {},
    mcp: { server, originalName },
    execute: () => ok(`${originalName} answered`),
  };
  if (extra.annotations) tool.annotations = extra.annotations;
  return tool;
}

export function externalTool(
  name: string,
  extra: Partial<ExternalToolDefinition> = {},
): ExternalToolDefinition {
  return {
    name,
    description: `Client tool ${name}.`,
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: (args) => ok(`client ${name} got ${JSON.stringify(args)}`),
    ...extra,
  };
}

export function makePolicy(overrides: Partial<SessionPolicy> = {}): SessionPolicy {
  return {
    personalityId: 'test',
    plugins: ['code', 'shell', 'agents'],
    mcpServers: {},
    permissions: {},
    agents: {},
    budget: { resultChars: 80_000 },
    deferLoading: { enabled: false },
    ...overrides,
  };
}

/** Built-ins as first-party plugins would register them. */
/** The names and aliases tools-code ships, so agent sets are tested against what users get. */
const SHIPPED_CODE_TOOL_ALIASES: Record<string, string[]> = {
  read_file: ['Read'],
  write_file: ['Write'],
  edit_file: ['Edit'],
  multi_edit: ['MultiEdit'],
  apply_patch: [],
  grep_search: ['Grep'],
  file_search: ['Glob'],
  list_dir: [],
};

export function registerStandardTools(registry: DefaultToolRegistry): void {
  registry.registerAll(
    Object.entries(SHIPPED_CODE_TOOL_ALIASES).map(([name, aliases]) => builtInTool(name, { aliases })),
    { pluginId: 'code' },
  );
  registry.registerAll([builtInTool('terminal')], { pluginId: 'shell' });
  registry.registerAll(
    ['agent', 'ask_user', 'send_message', 'task_create', 'task_stop', 'team_create'].map((name) =>
      builtInTool(name),
    ),
    { pluginId: 'agents' },
  );
}

export function newRegistry(): DefaultToolRegistry {
  return new DefaultToolRegistry();
}

const noBackends: CapabilityBackendRegistry = {
  has: () => false,
  resolve: () => Promise.reject(new Error('no capability backends in this test')),
};

export function makeDeps(
  registry: DefaultToolRegistry,
  policy: SessionPolicy,
  extra: Partial<SessionDeps> = {},
): SessionDeps {
  return {
    registry,
    reducers: new DefaultToolResultReducerRegistry(),
    backends: noBackends,
    hooks: new DefaultHookRegistry(),
    policy,
    workspace: '/tmp',
    dataDir: '/tmp',
    ...extra,
  };
}

export const CATALOG_DIRECTORY = '/work/shared/data/mcp-catalogs';

interface CatalogFile {
  server: string;
  tools: { name: string; title?: string; description?: string; inputSchema: Record<string, unknown> }[];
}

/** The 598 real MCP tools of the shared catalogs, as the MCP bridge would register them. */
export function loadCatalogTools(): Tool[] {
  const tools: Tool[] = [];
  for (const file of readdirSync(CATALOG_DIRECTORY)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const catalog = JSON.parse(readFileSync(join(CATALOG_DIRECTORY, file), 'utf8')) as CatalogFile;
    const server = catalog.server.replace(/[^a-zA-Z0-9-]/g, '-');
    for (const entry of catalog.tools) {
      tools.push(
        mcpTool(server, entry.name, {
          description: entry.description ?? entry.title ?? entry.name,
          schema: entry.inputSchema,
        }),
      );
    }
  }
  return tools;
}

/** Registers catalog tools, skipping the few whose shortened names collide. */
export function registerCatalog(registry: DefaultToolRegistry, tools: readonly Tool[]): string[] {
  const servers = new Set<string>();
  for (const tool of tools) {
    if (registry.get(tool.name)) continue;
    registry.register(tool);
    if (tool.mcp) servers.add(tool.mcp.server);
  }
  return [...servers];
}

export function names(list: readonly { name: string }[]): string[] {
  return list.map((entry) => entry.name);
}
