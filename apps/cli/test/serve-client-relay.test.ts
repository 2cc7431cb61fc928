import path from 'node:path';
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { EVERYTHING_SERVER, quiver, tempDir, write } from './helpers.js';
import { connectStdio, relayServerYaml, textOf, untilListed } from './serve-fixtures.js';

/** A workspace bridging the relay fixture (questions and sampling allowed) and server-everything. */
function relayWorkspace(): { dir: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir('quiver-serve-relay-');
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: relay',
      'mcpServers:',
      ...relayServerYaml(['elicitation', 'sampling']),
      '  everything:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(EVERYTHING_SERVER)}, stdio]`,
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/relay.yaml'),
    [
      'id: relay',
      'plugins: [mcp-bridge]',
      'mcpServers: { relay: true, everything: true }',
      'permissions:',
      '  allow: [mcp__relay__ask_name, mcp__relay__summarize, "list_mcp_resources", "read_mcp_resource(everything:*)"]',
      '',
    ].join('\n'),
  );
  return { dir, cleanup };
}

async function connect(
  dir: string,
  capabilities: ClientCapabilities,
  stderr: Array<() => string>,
): Promise<Client> {
  const served = await connectStdio(dir, { capabilities });
  stderr.push(served.stderr);
  return served.client;
}

describe("a bridged server's requests relayed to whoever started the session", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  /** A client that answers questions and sampling requests, and one that declares neither. */
  let capable: Client;
  let plain: Client;
  let dir: string;
  const stderr: Array<() => string> = [];
  beforeAll(async () => {
    const workspace = relayWorkspace();
    dir = workspace.dir;
    cleanups.push(workspace.cleanup);
    capable = await connect(workspace.dir, { elicitation: { form: {} }, sampling: {} }, stderr);
    cleanups.push(() => capable.close());
    plain = await connect(workspace.dir, {}, stderr);
    cleanups.push(() => plain.close());
    await Promise.all([
      untilListed(capable, 'mcp__relay__ask_name'),
      untilListed(plain, 'mcp__relay__ask_name'),
      untilListed(plain, 'mcp__everything__echo'),
    ]);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  beforeEach(() => {
    onTestFailed(() => console.error(`serve's stderr:\n${stderr.map((read) => read()).join('')}`));
  });

  it("puts the server's question to a client that supports elicitation and returns the answer", async () => {
    const asked: string[] = [];
    capable.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const result = await capable.callTool({ name: 'mcp__relay__ask_name', arguments: {} });
    expect(textOf(result)).toBe('hello Ada');
    expect(asked).toEqual(['MCP server "relay" asks: What is your name?']);
  });

  it('refuses the question for a client that does not support elicitation, saying why', async () => {
    const result = await plain.callTool({ name: 'mcp__relay__ask_name', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'Quiver refused the elicitation request of MCP server "relay": the MCP client of this session does not support form elicitation',
    );
  });

  it("passes a sampling request to a client that supports sampling and returns the client's completion", async () => {
    capable.setRequestHandler('sampling/createMessage', () => ({
      role: 'assistant',
      content: { type: 'text', text: 'short' },
      model: 'client-model',
    }));
    const result = await capable.callTool({
      name: 'mcp__relay__summarize',
      arguments: { text: 'a long story' },
    });
    expect(textOf(result)).toBe('summary by client-model: short');
    const refused = await plain.callTool({
      name: 'mcp__relay__summarize',
      arguments: { text: 'a long story' },
    });
    expect(textOf(refused)).toContain('the MCP client of this session does not support sampling');
  });

  it("relays the enabled servers' resources and prompts, naming their server", async () => {
    expect(plain.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {} });
    const uri = 'demo://resource/static/document/architecture.md';
    const { resources } = await plain.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri, name: 'architecture.md', _meta: { 'quiver/mcpServer': 'everything' } }),
    );
    const read = await plain.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
    expect(JSON.stringify(read.contents[0])).toContain('Everything Server');
    const { prompts } = await plain.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('mcp__everything__simple-prompt');
    const prompt = await plain.getPrompt({
      name: 'mcp__everything__args-prompt',
      arguments: { city: 'Lisbon' },
    });
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon');
  });

  it("lets the model list and read a server's resources through its tools", async () => {
    const listed = await plain.callTool({ name: 'list_mcp_resources', arguments: { server: 'everything' } });
    expect(textOf(listed)).toContain('everything: demo://resource/static/document/architecture.md');
    const read = await plain.callTool({
      name: 'read_mcp_resource',
      arguments: { server: 'everything', uri: 'demo://resource/static/document/features.md' },
    });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain('[resource demo://resource/static/document/features.md]');
  });

  it('refuses the question in `quiver call` without a terminal to ask on, saying so in the result and the events', async () => {
    const run = await quiver(['--trust-project', 'call', 'mcp__relay__ask_name', '--events'], { cwd: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /Quiver refused the elicitation request of MCP server \\?"relay\\?": there is no terminal to ask on/,
    );
    const relayed = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type: string; outcome?: string; mcpServer?: string })
      .filter((event) => event.type.startsWith('client_relay.'));
    expect(relayed).toEqual([
      expect.objectContaining({ type: 'client_relay.requested', mcpServer: 'relay' }),
      expect.objectContaining({ type: 'client_relay.completed', outcome: 'refused' }),
    ]);
  });
});
