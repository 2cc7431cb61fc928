import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';
import { connectStdio, textOf, untilListed } from './serve-fixtures.js';

const dirs = tempDirs('quiver-serve-warmup-');
afterEach(dirs.cleanup);

/**
 * A bridged server that writes every message it reads (method, or `response`) to the file named
 * by its argument: `echo` answers, `shaped` answers with structured content matching its
 * outputSchema, `hold` answers only when cancelled (never: it records the cancel).
 */
const RECORDING_SERVER = `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const record = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const object = { type: 'object', properties: {} };
const tools = [
  { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } },
  { name: 'shaped', description: 'Structured.', inputSchema: object,
    outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
  { name: 'hold', description: 'Runs until cancelled.', inputSchema: object },
];
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  appendFileSync(record, (message.method ?? 'response') + (message.method === 'tools/call' ? ' ' + message.params.name : '') + '\\n');
  if (message.id === undefined || message.method === undefined) return;
  if (message.method === 'initialize')
    return send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'recording', version: '1.0.0' } } });
  if (message.method === 'ping') return send({ id: message.id, result: {} });
  if (message.method === 'tools/list') return send({ id: message.id, result: { tools } });
  if (message.method === 'tools/call' && message.params.name === 'echo')
    return send({ id: message.id, result: { content: [{ type: 'text', text: 'echo: ' + message.params.arguments.message }] } });
  if (message.method === 'tools/call' && message.params.name === 'shaped')
    return send({ id: message.id, result: { content: [{ type: 'text', text: '{"n":7}' }], structuredContent: { n: 7 } } });
  if (message.method === 'tools/call') return;
  send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
});
`;

function workspace(): { dir: string; record: string } {
  const dir = dirs.make();
  const record = path.join(dir, 'received.txt');
  write(record, '');
  write(path.join(dir, 'recording-server.mjs'), RECORDING_SERVER);
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: gate',
      'mcpServers:',
      '  recording:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(path.join(dir, 'recording-server.mjs'))}, ${JSON.stringify(record)}]`,
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/gate.yaml'),
    'id: gate\nplugins: [mcp-bridge]\nmcpServers:\n  recording: {}\npermissions:\n  allow: [mcp__recording__*]\n',
  );
  return { dir, record };
}

const received = (record: string) => readFileSync(record, 'utf8').split('\n').filter(Boolean);

async function loggedCalls(dir: string): Promise<Array<number | undefined>> {
  const run = await quiver(['--trust-project', 'log', '--json'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { sessions: Array<{ calls?: number }> }).sessions.map(
    (session) => session.calls,
  );
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never: ${what}`);
}

describe('quiver serve warms its own call path while it waits', () => {
  it('runs and logs no call before the first one, which then runs and is logged', async () => {
    const { dir, record } = workspace();
    const { client, stderr } = await connectStdio(dir);
    try {
      await untilListed(client, 'mcp__recording__echo', { stderr });
      // The warm-ups ran meanwhile (serve's, the session's, the bridge's result path): the server
      // was sent only what connecting and listing take, no call is in the session's log.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received(record)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
      expect(await loggedCalls(dir)).toEqual([0]);

      const echoed = await client.callTool({ name: 'mcp__recording__echo', arguments: { message: 'hi' } });
      expect(textOf(echoed)).toBe('echo: hi');
      const shaped = await client.callTool({ name: 'mcp__recording__shaped', arguments: {} });
      expect(shaped.isError, textOf(shaped)).toBeFalsy();
      expect(shaped.structuredContent).toEqual({ n: 7 });
      expect(received(record).filter((line) => line.startsWith('tools/call'))).toEqual([
        'tools/call echo',
        'tools/call shaped',
      ]);
      expect(await loggedCalls(dir)).toEqual([2]);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('still cancels a bridged call mid-call, and the next call is answered', async () => {
    const { dir, record } = workspace();
    const { client, stderr } = await connectStdio(dir);
    try {
      await untilListed(client, 'mcp__recording__hold', { stderr });
      const controller = new AbortController();
      // No progress token: a plain call, which serve's lean path takes.
      const held = client.callTool(
        { name: 'mcp__recording__hold', arguments: {} },
        { signal: controller.signal },
      );
      await until(() => received(record).includes('tools/call hold'), 'the held call reached the server');
      controller.abort('changed my mind');
      await expect(held).rejects.toThrow();
      // The cancel reached the bridged server: the call was stopped there, not only dropped here.
      await until(
        () => received(record).includes('notifications/cancelled'),
        'the bridged server was told the call was cancelled',
      );
      const echoed = await client.callTool({ name: 'mcp__recording__echo', arguments: { message: 'next' } });
      expect(textOf(echoed)).toBe('echo: next');
    } finally {
      await client.close();
    }
  }, 120_000);
});
