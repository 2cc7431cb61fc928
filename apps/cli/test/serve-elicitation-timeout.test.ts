import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { tempDir, write } from './helpers.js';
import { connectStdio, relayServerYaml, textOf, untilListed } from './serve-fixtures.js';

const CALL_TIMEOUT_MS = 2_000;
/** How long the person takes to answer: well past the bridged call's timeout. */
const ANSWER_AFTER_MS = 3 * CALL_TIMEOUT_MS;
const PATIENT = { timeout: 120_000 };

const cleanups: Array<() => Promise<void> | void> = [];
let stderr: () => string = () => '';
let client: Client;

beforeAll(async () => {
  const { dir, cleanup } = tempDir('quiver-serve-slow-answer-');
  cleanups.push(cleanup);
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: relay',
      'mcpServers:',
      ...relayServerYaml(['elicitation']),
      `    callTimeoutMs: ${CALL_TIMEOUT_MS}`,
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/relay.yaml'),
    'id: relay\nplugins: [mcp-bridge]\nmcpServers: { relay: true }\npermissions:\n  allow: [mcp__relay__ask_name]\n',
  );
  const served = await connectStdio(dir, { elicitation: true, timeoutMs: PATIENT.timeout });
  client = served.client;
  stderr = served.stderr;
  cleanups.push(() => client.close());
  await untilListed(client, 'mcp__relay__ask_name', {
    timeoutMs: 120_000,
    requestTimeoutMs: PATIENT.timeout,
    stderr,
  });
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("keeps a bridged call alive while a person takes longer than the call's timeout to answer the server's question", async () => {
  onTestFailed(() => console.error(`serve's stderr:\n${stderr()}`));
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
