import { CLIENT_RELAY_KINDS, QuiverError } from '@quiver/types';
import { z } from 'zod';
import { oauthConfigSchema } from './oauth-config.js';

/** `__` separates the parts of `mcp__<server>__<tool>`, so a server name may not contain it. */
const SERVER_NAME_PATTERN = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;

/** MCP's `includeContext` values, from least to most. */
export const SAMPLING_CONTEXTS = ['none', 'thisServer', 'allServers'] as const;
export type SamplingContext = (typeof SAMPLING_CONTEXTS)[number];

/**
 * The entry schemas, built when `mcpServers` is first read: a process whose configuration has no
 * MCP server (a `quiver call` of a built-in tool) imports this module without building them.
 */
function buildServerSchemas() {
  const commonFields = {
    connectTimeoutMs: z.number().int().positive().default(10_000),
    callTimeoutMs: z.number().int().positive().default(60_000),
    maxCallTimeoutMs: z.number().int().positive().default(600_000),
    /** Call timeouts of single tools (by the server's tool name), instead of `callTimeoutMs`. */
    toolTimeouts: z.record(z.string().min(1), z.number().int().positive()).default({}),
    includeTools: z.array(z.string().min(1)).optional(),
    excludeTools: z.array(z.string().min(1)).optional(),
    disabled: z.boolean().default(false),
    /**
     * Believe the server's readOnly/destructive/idempotent/openWorld hints: copy them into Quiver's
     * annotations (re-advertised by `serve`, used for agent sets) and retry idempotent calls.
     */
    trustAnnotations: z.boolean().default(false),
    /** What the server may ask of the session's client (off unless listed: a server could phish). */
    allow: z.array(z.enum(CLIENT_RELAY_KINDS)).default([]),
    /**
     * The most context a sampling request of the server may ask the client to include: `none`
     * unless a person opts in, because the client's context (other servers' data, the conversation)
     * would go back to the server in the completion.
     */
    samplingContext: z.enum(SAMPLING_CONTEXTS).default('none'),
  };

  const stdio = z
    .object({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
      cwd: z.string().min(1).optional(),
      ...commonFields,
    })
    .strict();
  const http = z
    .object({
      url: z.url(),
      headers: z.record(z.string(), z.string()).default({}),
      transport: z.enum(['streamable-http', 'sse']).optional(),
      oauth: oauthConfigSchema().optional(),
      ...commonFields,
    })
    .strict();
  return { stdio, http, stdioKeys: Object.keys(stdio.shape), httpKeys: Object.keys(http.shape) };
}

type ServerSchemas = ReturnType<typeof buildServerSchemas>;
let serverSchemas: ServerSchemas | undefined;
function schemas(): ServerSchemas {
  serverSchemas ??= buildServerSchemas();
  return serverSchemas;
}

export type StdioServerConfig = z.infer<ServerSchemas['stdio']>;
export type HttpServerConfig = z.infer<ServerSchemas['http']>;
export type McpServerConfig = StdioServerConfig | HttpServerConfig;
export type McpServerConfigInput = z.input<ServerSchemas['stdio']> | z.input<ServerSchemas['http']>;

export function isStdioServerConfig(config: McpServerConfig): config is StdioServerConfig {
  return 'command' in config;
}

/** Why one `mcpServers` entry cannot be used; the other servers are unaffected. */
export interface InvalidMcpServer {
  server: string;
  /** Key path inside the entry (empty for the entry itself). */
  keyPath: string[];
  message: string;
  /** A key the entry's schema does not have, and the keys it does (for a did-you-mean). */
  unknownKey?: string;
  allowed?: string[];
  error: QuiverError;
}

export interface McpServersReading {
  servers: Map<string, McpServerConfig>;
  invalid: InvalidMcpServer[];
}

/**
 * Validates each entry of the `mcpServers` table on its own: a broken entry (a typo such as
 * `comand:`) is reported with the key and the keys allowed there, and leaves the others usable.
 */
export function readMcpServersConfig(raw: Readonly<Record<string, unknown>>): McpServersReading {
  const servers = new Map<string, McpServerConfig>();
  const invalid: InvalidMcpServer[] = [];
  for (const [name, value] of Object.entries(raw)) {
    try {
      servers.set(name, parseServerEntry(name, value));
    } catch (error) {
      if (!(error instanceof QuiverError)) throw error;
      const details = (error.details ?? {}) as Partial<InvalidMcpServer> & { key?: string };
      invalid.push({
        server: name,
        keyPath: details.keyPath ?? (details.key ? details.key.split('.') : []),
        message: error.message,
        ...(details.unknownKey ? { unknownKey: details.unknownKey } : {}),
        ...(details.allowed ? { allowed: details.allowed } : {}),
        error,
      });
    }
  }
  return { servers, invalid };
}

/** Validates the `mcpServers` table; throws `config_invalid` naming the server and the key of the first broken entry. */
export function parseMcpServersConfig(raw: Readonly<Record<string, unknown>>): Map<string, McpServerConfig> {
  const { servers, invalid } = readMcpServersConfig(raw);
  const first = invalid[0];
  if (first) throw first.error;
  return servers;
}

function parseServerEntry(name: string, value: unknown): McpServerConfig {
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new QuiverError(
      'config_invalid',
      `mcpServers: the server name "${name}" is not usable in tool names.`,
      {
        fix: 'Use letters, digits, "-" and single "_" (no "__", no leading or trailing "_"), e.g. "github" or "brave-search".',
        details: { server: name },
      },
    );
  }
  const { stdio, http, stdioKeys, httpKeys } = schemas();
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const schema = isObject && 'url' in value ? http : stdio;
  const allowed = isObject && 'url' in value ? httpKeys : stdioKeys;
  if (isObject) {
    const unknownKey = Object.keys(value).find((key) => !stdioKeys.includes(key) && !httpKeys.includes(key));
    if (unknownKey !== undefined)
      throw new QuiverError('config_invalid', `mcpServers.${name}.${unknownKey}: unknown key.`, {
        fix: `Correct or remove "${unknownKey}" under mcpServers.${name}; the keys are ${allowed.join(', ')}.`,
        details: { server: name, key: unknownKey, keyPath: [unknownKey], unknownKey, allowed },
      });
  }
  if (isObject && !('url' in value) && !('command' in value)) {
    throw new QuiverError(
      'config_invalid',
      `mcpServers.${name}: needs either "command" (stdio) or "url" (HTTP).`,
      {
        fix: `Add \`command: <executable>\` or \`url: https://…\` under mcpServers.${name}.`,
        details: { server: name, key: 'command' },
      },
    );
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.join('.') ?? '';
    const where = key === '' ? `mcpServers.${name}` : `mcpServers.${name}.${key}`;
    throw new QuiverError('config_invalid', `${where}: ${issue?.message ?? 'invalid value'}.`, {
      fix: `Fix "${key || name}" under mcpServers.${name} in quiver.yaml.`,
      details: { server: name, key, keyPath: (issue?.path ?? []).map(String), issues: parsed.error.issues },
    });
  }
  if (parsed.data.callTimeoutMs > parsed.data.maxCallTimeoutMs) {
    throw new QuiverError(
      'config_invalid',
      `mcpServers.${name}.callTimeoutMs: is larger than maxCallTimeoutMs.`,
      {
        fix: `Lower callTimeoutMs or raise maxCallTimeoutMs under mcpServers.${name}.`,
        details: { server: name, key: 'callTimeoutMs' },
      },
    );
  }
  for (const [tool, timeoutMs] of Object.entries(parsed.data.toolTimeouts)) {
    if (timeoutMs <= parsed.data.maxCallTimeoutMs) continue;
    throw new QuiverError(
      'config_invalid',
      `mcpServers.${name}.toolTimeouts.${tool}: ${timeoutMs} ms is larger than maxCallTimeoutMs (${parsed.data.maxCallTimeoutMs} ms).`,
      {
        fix: `Lower toolTimeouts.${tool} or raise maxCallTimeoutMs under mcpServers.${name}.`,
        details: { server: name, key: `toolTimeouts.${tool}` },
      },
    );
  }
  return parsed.data;
}
