import path from 'node:path';
import { Client, type ClientCapabilities, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, linkDependency, REPO, TEST_XDG_DATA_HOME, tempDir, write } from './helpers.js';

/**
 * A plugin for serve tests: a tool that counts with progress, one that waits on its signal and
 * leaves a marker when aborted, and one that registers another tool at runtime.
 */
const PLUGIN_SOURCE = `import { writeFileSync } from 'node:fs';
import { z } from 'zod';

const pause = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

export default { id: 'workbench', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'count_slowly', description: 'Counts to steps, reporting progress.', capabilities: {},
    input: z.object({ steps: z.number().int().min(1) }),
    async execute({ steps }, tool) {
      for (let step = 1; step <= steps; step += 1) {
        tool.emit({ type: 'progress', progress: step, total: steps, message: 'step ' + step });
        await pause(20, tool.signal);
      }
      tool.emit({ type: 'partial', text: 'all ' + steps + ' counted' });
      return { ok: true, value: 'counted to ' + steps, structured: { steps } };
    } });
  ctx.registerTool({ name: 'wait_for_abort', description: 'Reports progress once, then waits until the call is aborted.', capabilities: {},
    input: z.object({ marker: z.string() }),
    async execute({ marker }, tool) {
      tool.emit({ type: 'progress', progress: 1, message: 'waiting' });
      await new Promise((resolve) => tool.signal.addEventListener('abort', resolve, { once: true }));
      writeFileSync(marker, 'aborted');
      return { ok: false, code: 'aborted', error: 'stopped waiting' };
    } });
  ctx.registerTool({ name: 'log_steps', description: 'Logs a debug, an info and a warning message, then answers.', capabilities: {},
    input: z.object({}),
    execute(_args, tool) {
      tool.emit({ type: 'log', level: 'debug', message: 'looking closely' });
      tool.emit({ type: 'log', level: 'info', message: 'step one done' });
      tool.emit({ type: 'log', level: 'warning', message: 'step two was slow' });
      return { ok: true, value: 'logged' };
    } });
  ctx.registerTool({ name: 'render_swatch', description: 'Returns a swatch image and its notes as attachments.', capabilities: {},
    input: z.object({}),
    execute: () => ({ ok: true, value: 'one red pixel', attachments: [
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==' },
      { type: 'resource', uri: 'file:///swatch-notes.txt', mimeType: 'text/plain', text: 'red, 1x1' },
    ] }) });
  ctx.registerTool({ name: 'add_tool', description: 'Registers another tool at runtime.', capabilities: {},
    input: z.object({ name: z.string() }),
    execute({ name }) {
      ctx.registerTool({ name, description: 'Added at runtime.', input: z.object({}), capabilities: {},
        execute: () => ({ ok: true, value: name + ' ran' }) });
      return { ok: true, value: 'added ' + name };
    } });
} };
`;

export interface ServeWorkspace {
  dir: string;
  cleanup: () => void;
}

/** A workspace with quiver.yaml, the workbench plugin and a `dev` personality (no kanban, no terminal allow rule). */
export function serveWorkspace(): ServeWorkspace {
  const { dir, cleanup } = tempDir('quiver-serve-');
  write(
    path.join(dir, 'workbench/package.json'),
    JSON.stringify({
      name: 'workbench',
      version: '1.0.0',
      type: 'module',
      quiver: { plugin: './plugin.js' },
    }),
  );
  write(path.join(dir, 'workbench/plugin.js'), PLUGIN_SOURCE);
  linkDependency(path.join(dir, 'workbench'), 'zod', path.join(REPO, 'packages/types/node_modules/zod'));
  write(path.join(dir, 'quiver.yaml'), 'plugins:\n  - ./workbench\ndefaultPersonality: dev\n');
  write(
    path.join(dir, 'personalities/dev.yaml'),
    'id: dev\nplugins: [tools-code, tools-terminal, workbench]\npermissions:\n  allow: [read_file, list_dir, count_slowly, wait_for_abort, add_tool, added_*, render_swatch, log_steps]\n',
  );
  write(path.join(dir, 'README.md'), '# Serve fixture\nThe quick brown fox.\n');
  return { dir, cleanup };
}

export function serveEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, NO_COLOR: '1', XDG_DATA_HOME: TEST_XDG_DATA_HOME };
}

/** An SDK client connected over stdio to `quiver serve` running in `dir`. */
export async function connectStdio(
  dir: string,
  options: {
    args?: string[];
    elicitation?: boolean;
    /** Client capabilities beyond `elicitation` (for instance `sampling`). */
    capabilities?: ClientCapabilities;
    trustProject?: boolean;
    env?: NodeJS.ProcessEnv;
    /** How long initialize may take (default: the SDK's 60 s). */
    timeoutMs?: number;
  } = {},
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The fixture's quiver.yaml loads a plugin by path: a person launching it trusts it.
    args: [
      BIN,
      ...(options.trustProject === false ? [] : ['--trust-project']),
      'serve',
      ...(options.args ?? []),
    ],
    cwd: dir,
    env: { ...serveEnv(), ...(options.env as Record<string, string> | undefined) },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const capabilities: ClientCapabilities = {
    ...(options.elicitation ? { elicitation: { form: {} } } : {}),
    ...options.capabilities,
  };
  const client = new Client({ name: 'serve-test', version: '1.0.0' }, { capabilities });
  await client.connect(
    transport,
    options.timeoutMs === undefined ? undefined : { timeout: options.timeoutMs },
  );
  return { client, transport, stderr: () => stderr };
}

/** The relay fixture: an SDK server whose tools ask the client a question or for a sampled message. */
export const RELAY_SERVER = path.join(REPO, 'extensions/mcp-bridge/test/fixtures/relay-server.mjs');

/** The lines under `mcpServers:` of a quiver.yaml that bridge the relay fixture as `relay`. */
export function relayServerYaml(allow: readonly string[]): string[] {
  return [
    '  relay:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(RELAY_SERVER)}]`,
    `    allow: [${allow.join(', ')}]`,
  ];
}

/**
 * Waits until `tool` is listed: serve connects its bridged servers on their own time after the
 * session asks for them.
 */
export async function untilListed(
  client: Client,
  tool: string,
  options: { timeoutMs?: number; requestTimeoutMs?: number; stderr?: () => string } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const request = options.requestTimeoutMs === undefined ? {} : { timeout: options.requestTimeoutMs };
  for (;;) {
    const { tools } = await client.listTools(undefined, { ...request, cacheMode: 'refresh' });
    if (tools.some((entry) => entry.name === tool)) return;
    if (Date.now() > deadline)
      throw new Error(`${tool} was never listed${options.stderr ? `:\n${options.stderr()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The text of a tools/call result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return first?.type === 'text' ? (first.text ?? '') : '';
}

export interface ProgressNotice {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Records progress notifications as the transport reads them. The SDK client dispatches
 * `onprogress` asynchronously but settles the response at once, so it can drop the last notice
 * before a result; reading the wire shows what the server actually sent, in order.
 */
export function recordProgress(transport: Transport): ProgressNotice[] {
  const notices: ProgressNotice[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress') {
      const { progressToken: _token, ...notice } = message.params as unknown as ProgressNotice & {
        progressToken: unknown;
      };
      notices.push(notice);
    }
    deliver?.call(transport, message, extra);
  };
  return notices;
}
