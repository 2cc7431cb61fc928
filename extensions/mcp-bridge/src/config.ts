import { CLIENT_RELAY_KINDS, QuiverError } from '@quiver/types';
import { z } from 'zod';
import { oauthConfigSchema } from './oauth-config.js';

/** `__` separates the parts of `mcp__<server>__<tool>`, so a server name may not contain it. */
const SERVER_NAME_PATTERN = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;

/** MCP's `includeContext` values, from least to most. */
export const SAMPLING_CONTEXTS = ['none', 'thisServer', 'allServers'] as const;
export type SamplingContext = (typeof SAMPLING_CONTEXTS)[number];

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

const stdioServerSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().min(1).optional(),
    ...commonFields,
  })
  .strict();

const httpServerSchema = z
  .object({
    url: z.url(),
    headers: z.record(z.string(), z.string()).default({}),
    transport: z.enum(['streamable-http', 'sse']).optional(),
    oauth: oauthConfigSchema.optional(),
    ...commonFields,
  })
  .strict();

export type StdioServerConfig = z.infer<typeof stdioServerSchema>;
export type HttpServerConfig = z.infer<typeof httpServerSchema>;
export type McpServerConfig = StdioServerConfig | HttpServerConfig;
export type McpServerConfigInput = z.input<typeof stdioServerSchema> | z.input<typeof httpServerSchema>;

export function isStdioServerConfig(config: McpServerConfig): config is StdioServerConfig {
  return 'command' in config;
}

/** Validates the `mcpServers` table; throws `config_invalid` naming the server and the key. */
export function parseMcpServersConfig(raw: Readonly<Record<string, unknown>>): Map<string, McpServerConfig> {
  const servers = new Map<string, McpServerConfig>();
  for (const [name, value] of Object.entries(raw)) {
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
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    const schema = isObject && 'url' in value ? httpServerSchema : stdioServerSchema;
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
        details: { server: name, key, issues: parsed.error.issues },
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
    servers.set(name, parsed.data);
  }
  return servers;
}
