import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, tempDirs, write } from './helpers.js';
import { connectStdio, recordProgress, textOf } from './serve-fixtures.js';

const HOSTILE_SERVER = path.join(REPO, 'extensions/mcp-bridge/test/fixtures/hostile-server.mjs');
// The 100,000-notification flood runs in bench/serve-flood.bench.ts; this size runs in seconds.
const PROGRESS = 10_000;
const LOGS = 10_000;
/** What the bridge lets through per server and second (SERVER_LOG_MESSAGES_PER_SECOND). */
const LOGS_PER_SECOND = 10;

interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

/** Log messages as the transport reads them, in order. */
function recordLogMessages(transport: Transport): LogMessage[] {
  const messages: LogMessage[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/message')
      messages.push(message.params as unknown as LogMessage);
    deliver?.call(transport, message, extra);
  };
  return messages;
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('quiver serve in front of a server that floods a call with notifications', () => {
  const dirs = tempDirs('quiver-serve-flood-');
  afterEach(dirs.cleanup);

  it('passes a few progress notices and log messages a second to its client, and counts the rest', async () => {
    const workspace = dirs.make();
    write(
      path.join(workspace, 'quiver.yaml'),
      [
        'defaultPersonality: dev',
        'mcpServers:',
        '  hostile:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(HOSTILE_SERVER)}]`,
        `    env: { HOSTILE_STATE_DIR: ${JSON.stringify(dirs.make())} }`,
        '',
      ].join('\n'),
    );
    write(
      path.join(workspace, 'personalities/dev.yaml'),
      'plugins: [mcp-bridge]\nmcpServers:\n  hostile: true\npermissions:\n  allow: [mcp__hostile__*]\n',
    );
    const { client, transport } = await connectStdio(workspace, { env: { XDG_DATA_HOME: dirs.make() } });
    try {
      const notices = recordProgress(transport);
      const logs = recordLogMessages(transport);
      await client.setLoggingLevel('debug');
      for (;;) {
        const { tools } = await client.listTools(undefined, { cacheMode: 'refresh' });
        if (tools.some((tool) => tool.name === 'mcp__hostile__flood')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const started = Date.now();
      const result = await client.callTool(
        { name: 'mcp__hostile__flood', arguments: { count: PROGRESS, logs: LOGS } },
        { onprogress: () => {}, timeout: 120_000 },
      );
      const seconds = (Date.now() - started) / 1_000;
      expect(textOf(result)).toMatch(new RegExp(`^sent ${PROGRESS} in \\d+ ms$`));
      expect(notices.length).toBeGreaterThanOrEqual(1);
      expect(notices.length).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 3);
      expect(notices.at(-1)?.progress).toBeGreaterThanOrEqual(PROGRESS);

      const dropped = (message: LogMessage) =>
        Number(/^Quiver dropped (\d+) log messages/.exec(String(message.data))?.[1] ?? 0);
      const accounted = () =>
        logs.reduce((total, message) => total + (dropped(message) > 0 ? dropped(message) : 1), 0);
      await until('every log message to be passed on or counted as dropped', () => accounted() === LOGS);
      const passed = logs.filter((message) => dropped(message) === 0);
      const windows = Math.ceil((Date.now() - started) / 1_000) + 1;
      expect(passed.length).toBeGreaterThanOrEqual(1);
      expect(passed.length).toBeLessThanOrEqual(windows * LOGS_PER_SECOND);
      expect(passed[0]).toEqual({ level: 'error', logger: 'mcp__hostile/flood', data: 'line 1' });
    } finally {
      await client.close();
    }
  }, 150_000);
});
