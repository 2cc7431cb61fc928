import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { BIN, REPO, tempDir, write } from './helpers.js';
import { serveEnv, textOf } from './serve-fixtures.js';

/** An SDK server whose `ask_name` tool asks the client for a name while the call runs. */
const RELAY_SERVER = path.join(REPO, 'extensions/mcp-bridge/test/fixtures/relay-server.mjs');
const CALL_TIMEOUT_MS = 2_000;
/** How long the person takes to answer: well past the bridged call's timeout. */
const ANSWER_AFTER_MS = 3 * CALL_TIMEOUT_MS;
const PATIENT = { timeout: 120_000 };

const cleanups: Array<() => Promise<void> | void> = [];
const stderr: string[] = [];
let client: Client;

beforeAll(async () => {
  const { dir, cleanup } = tempDir('quiver-serve-slow-answer-');
  cleanups.push(cleanup);
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: relay',
      'mcpServers:',
      '  relay:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(RELAY_SERVER)}]`,
      '    allow: [elicitation]',
      `    callTimeoutMs: ${CALL_TIMEOUT_MS}`,
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/relay.yaml'),
    'id: relay\nplugins: [mcp-bridge]\nmcpServers: { relay: true }\npermissions:\n  allow: [mcp__relay__ask_name]\n',
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--trust-project', 'serve'],
    cwd: dir,
    env: serveEnv(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client(
    { name: 'slow-answer', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  await client.connect(transport, PATIENT);
  cleanups.push(() => client.close());
  // The server connects on its own time after serve starts it.
  const deadline = Date.now() + 120_000;
  while (
    !(await client.listTools(undefined, { ...PATIENT, cacheMode: 'refresh' })).tools.some(
      (tool) => tool.name === 'mcp__relay__ask_name',
    )
  ) {
    if (Date.now() > deadline) throw new Error(`mcp__relay__ask_name was never listed:\n${stderr.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("keeps a bridged call alive while a person takes longer than the call's timeout to answer the server's question", async () => {
  onTestFailed(() => console.error(`serve's stderr:\n${stderr.join('')}`));
  let asked = 0;
  client.setRequestHandler('elicitation/create', async () => {
    asked += 1;
    await new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS));
    return { action: 'accept', content: { name: 'Ada' } };
  });
  const started = Date.now();
  const result = await client.callTool({ name: 'mcp__relay__ask_name', arguments: {} }, PATIENT);
  expect(textOf(result)).toBe('hello Ada');
  expect(result.isError).toBeFalsy();
  expect(asked).toBe(1);
  expect(Date.now() - started).toBeGreaterThanOrEqual(ANSWER_AFTER_MS);
}, 180_000);
