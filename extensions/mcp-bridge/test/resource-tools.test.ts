import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, everythingServer, type Harness, successText } from './helpers.js';

describe("the model's resource tools against @modelcontextprotocol/server-everything", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = createHarness({ everything: { command: process.execPath, args: [everythingServer, 'stdio'] } });
    for (const tool of harness.bridge.resourceTools())
      harness.registry.register(tool, { pluginId: 'mcp-bridge' });
    await harness.bridge.start();
  });
  afterAll(() => harness.stop());

  it('lists the resources of the server with their server and URI', async () => {
    const { result } = await harness.call('list_mcp_resources', {});
    const text = successText(result);
    expect(text).toContain('everything: demo://resource/static/document/architecture.md — architecture.md');
    expect(result.ok && result.structured).toMatchObject({
      resources: expect.arrayContaining([
        {
          server: 'everything',
          uri: 'demo://resource/static/document/architecture.md',
          name: 'architecture.md',
          mimeType: 'text/markdown',
        },
      ]),
      unavailable: [],
    });
  });

  it('reads a listed resource as text and keeps it as a resource attachment', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const { result } = await harness.call('read_mcp_resource', { server: 'everything', uri });
    expect(successText(result)).toMatch(
      /^\[resource demo:\/\/resource\/static\/document\/architecture\.md\]\n# Everything Server/,
    );
    expect(result.ok && result.attachments).toEqual([
      expect.objectContaining({ type: 'resource', uri, mimeType: 'text/markdown' }),
    ]);
  });

  it('names the configured servers when asked for one that does not exist', async () => {
    const { result } = await harness.call('read_mcp_resource', { server: 'github', uri: 'x://y' });
    expect(result).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(result.ok ? '' : result.error).toBe(
      'there is no MCP server "github" here; the servers are: everything',
    );
  });

  it("passes on the server's own error for a URI it does not have", async () => {
    const { result } = await harness.call('read_mcp_resource', {
      server: 'everything',
      uri: 'demo://nothing',
    });
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(result.ok ? '' : result.error).toContain('MCP server "everything" could not read demo://nothing');
  });

  it('lists the prompts of the server for hosts that relay them', async () => {
    const listing = await harness.bridge.catalog.listPrompts();
    expect(listing.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ server: 'everything', name: 'simple-prompt' })]),
    );
    const prompt = await harness.bridge.catalog.getPrompt('everything', 'args-prompt', { city: 'Lisbon' });
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon');
  });
});
