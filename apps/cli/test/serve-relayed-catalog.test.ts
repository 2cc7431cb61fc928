import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO, tempDir, write } from './helpers.js';
import { serveEnv, textOf } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

/** The conformance suite's prompts and resources, with completions and subscriptions. */
const FIXTURE_SERVER = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-server.js');
const RELAY_SERVER = path.join(REPO, 'extensions/mcp-bridge/test/fixtures/relay-server.mjs');
const WATCHED = 'test://watched-resource';
const TOUCH = 'mcp__fixture__touch_watched_resource';
/** Requests to a serve process that may still be starting its servers on a loaded machine. */
const PATIENT = { timeout: 120_000 };

function server(name: string, ...args: string[]): string[] {
  return [
    `  ${name}:`,
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${args.map((arg) => JSON.stringify(arg)).join(', ')}]`,
  ];
}

function personality(id: string, servers: string): string {
  return [
    `id: ${id}`,
    'plugins: [mcp-bridge]',
    `mcpServers: ${servers}`,
    `permissions:\n  allow: [${TOUCH}]`,
    '',
  ].join('\n');
}

/** Personalities over the fixture server: its prompts under their own names, namespaced, clashing with a twin, and none of it. */
function catalogWorkspace(): { dir: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir('quiver-serve-catalog-relay-');
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: own',
      'mcpServers:',
      ...server('fixture', FIXTURE_SERVER, '--test-tools'),
      ...server('twin', FIXTURE_SERVER),
      ...server('relay', RELAY_SERVER),
      '',
    ].join('\n'),
  );
  write(path.join(dir, 'personalities/own.yaml'), personality('own', '{ fixture: { promptNames: own } }'));
  write(path.join(dir, 'personalities/namespaced.yaml'), personality('namespaced', '{ fixture: true }'));
  write(
    path.join(dir, 'personalities/clash.yaml'),
    personality('clash', '{ fixture: { promptNames: own }, twin: { promptNames: own } }'),
  );
  write(path.join(dir, 'personalities/tools-only.yaml'), personality('tools-only', '{ relay: true }'));
  return { dir, cleanup };
}

async function connectStdio(dir: string, personalityId: string, stderr: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--trust-project', 'serve', '--personality', personalityId],
    cwd: dir,
    env: serveEnv(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'catalog-relay-test', version: '1.0.0' });
  await client.connect(transport, PATIENT);
  return client;
}

async function connectHttp(url: string): Promise<Client> {
  const client = new Client({ name: 'catalog-relay-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)), PATIENT);
  return client;
}

/** Waits until serve lists the fixture's prompts: servers connect on their own time. */
async function untilPromptsListed(client: Client): Promise<string[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { prompts } = await client.listPrompts(undefined, { ...PATIENT, cacheMode: 'refresh' });
    if (prompts.length > 0) return prompts.map((prompt) => prompt.name).sort();
    if (Date.now() > deadline) throw new Error('the fixture server never offered its prompts');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a bridged server relayed by quiver serve, with its prompts under their own names', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const stderr: string[] = [];
  let dir: string;
  let client: Client;
  const updates: string[] = [];

  beforeAll(async () => {
    const workspace = catalogWorkspace();
    dir = workspace.dir;
    cleanups.push(workspace.cleanup);
    client = await connectStdio(dir, 'own', stderr);
    cleanups.push(() => client.close());
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updates.push(notification.params.uri);
    });
    await untilPromptsListed(client);
  }, 180_000);
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('lists the prompts under their own names and gives one asked for by that name', async () => {
    expect(await untilPromptsListed(client)).toEqual([
      'test_input_required_result_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_simple_prompt',
    ]);
    const prompt = await client.getPrompt(
      { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } },
      PATIENT,
    );
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='a', arg2='b'",
    });
    await expect(client.getPrompt({ name: 'mcp__fixture__test_simple_prompt' }, PATIENT)).rejects.toThrow(
      /there is no prompt "mcp__fixture__test_simple_prompt" here/,
    );
  });

  it("completes a prompt's argument and a resource template's variable at the server that offers them", async () => {
    const prompt = await client.complete(
      {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'par' },
      },
      PATIENT,
    );
    expect(prompt.completion.values).toEqual(['paris', 'park', 'party']);
    const template = await client.complete(
      {
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'id', value: '12' },
      },
      PATIENT,
    );
    expect(template.completion.values).toEqual(['123', '124']);
    const { resourceTemplates } = await client.listResourceTemplates(undefined, PATIENT);
    expect(resourceTemplates).toContainEqual(
      expect.objectContaining({
        uriTemplate: 'test://template/{id}/data',
        _meta: { 'quiver/mcpServer': 'fixture' },
      }),
    );
  });

  it('tells a subscribed client that the resource changed, and stops when it unsubscribes', async () => {
    await client.subscribeResource({ uri: WATCHED }, PATIENT);
    const told = await client.callTool({ name: TOUCH, arguments: {} }, PATIENT);
    expect(textOf(told)).toBe(`told the subscriber of ${WATCHED}`);
    // stdio keeps order: the bridged server's notice is relayed before the call's result.
    expect(updates).toEqual([WATCHED]);
    const read = await client.readResource({ uri: WATCHED }, PATIENT);
    expect(read.contents[0]).toMatchObject({ text: 'Watched resource content, version 2' });

    await client.unsubscribeResource({ uri: WATCHED }, PATIENT);
    const untold = await client.callTool({ name: TOUCH, arguments: {} }, PATIENT);
    expect(textOf(untold)).toBe(`nobody is subscribed to ${WATCHED}`);
    expect(updates).toEqual([WATCHED]);
  });

  it('names prompts mcp__<server>__<prompt> when the personality does not ask for their own names', async () => {
    const namespaced = await connectStdio(dir, 'namespaced', stderr);
    cleanups.push(() => namespaced.close());
    expect(await untilPromptsListed(namespaced)).toContain('mcp__fixture__test_simple_prompt');
    const prompt = await namespaced.getPrompt({ name: 'mcp__fixture__test_simple_prompt' }, PATIENT);
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: 'This is a simple prompt for testing.',
    });
    const completed = await namespaced.complete(
      {
        ref: { type: 'ref/prompt', name: 'mcp__fixture__test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'part' },
      },
      PATIENT,
    );
    expect(completed.completion.values).toEqual(['party']);
  });

  it('refuses prompts when two servers would offer the same name, saying which setting to change', async () => {
    const clash = await connectStdio(dir, 'clash', stderr);
    cleanups.push(() => clash.close());
    const refusal =
      /the prompt name "test_\w+" would be offered by MCP servers "(fixture|twin)" and "(fixture|twin)", so serve offers no prompts; in personality "clash", set mcpServers\.(fixture|twin)\.promptNames to namespaced/;
    const deadline = Date.now() + 120_000;
    // Until both servers have connected there is nothing to clash.
    for (;;) {
      const listed = await clash.listPrompts(undefined, { ...PATIENT, cacheMode: 'refresh' }).then(
        () => undefined,
        (error: Error) => error,
      );
      if (listed !== undefined) {
        expect(listed.message).toMatch(refusal);
        break;
      }
      if (Date.now() > deadline) throw new Error('the two servers never both offered their prompts');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await expect(clash.getPrompt({ name: 'test_simple_prompt' }, PATIENT)).rejects.toThrow(refusal);
  });

  it('declares neither subscriptions nor completions when no relayed server offers them, and refuses a subscription', async () => {
    const toolsOnly = await connectStdio(dir, 'tools-only', stderr);
    cleanups.push(() => toolsOnly.close());
    const capabilities = toolsOnly.getServerCapabilities();
    expect(capabilities?.resources).toEqual({});
    expect(capabilities?.completions).toBeUndefined();
    await expect(toolsOnly.subscribeResource({ uri: 'test://anything' }, PATIENT)).rejects.toThrow(
      'could not subscribe to test://anything at MCP server "relay": MCP server "relay" does not offer resource subscriptions',
    );
  });
});

describe('resource subscriptions of quiver serve --http clients', () => {
  let workspace: { dir: string; cleanup: () => void };
  let serve: RunningHttpServe;
  let observer: Client;

  beforeAll(async () => {
    workspace = catalogWorkspace();
    serve = await startHttpServe(workspace.dir, ['--personality', 'own']);
    observer = await connectHttp(serve.url);
    await untilPromptsListed(observer);
  }, 180_000);
  afterAll(async () => {
    await observer?.close();
    await serve?.stop();
    workspace?.cleanup();
  });

  it('declares subscriptions and completions once a relayed server offers them', async () => {
    const client = await connectHttp(serve.url);
    try {
      expect(client.getServerCapabilities()).toMatchObject({
        resources: { subscribe: true },
        completions: {},
        prompts: {},
      });
    } finally {
      await client.close();
    }
  });

  it("ends a client's subscriptions at the bridged server when its session closes", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(serve.url));
    const subscriber = new Client({ name: 'subscriber', version: '1.0.0' });
    await subscriber.connect(transport, PATIENT);
    await subscriber.subscribeResource({ uri: WATCHED }, PATIENT);
    const told = await observer.callTool({ name: TOUCH, arguments: {} }, PATIENT);
    expect(textOf(told)).toBe(`told the subscriber of ${WATCHED}`);

    await transport.terminateSession();
    await subscriber.close();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const result = await observer.callTool({ name: TOUCH, arguments: {} }, PATIENT);
      if (textOf(result) === `nobody is subscribed to ${WATCHED}`) break;
      if (Date.now() > deadline)
        throw new Error(`still subscribed after the session closed: ${serve.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
