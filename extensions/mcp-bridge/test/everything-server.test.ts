import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, everythingServer, type Harness, successText } from './helpers.js';

describe('the bridge against @modelcontextprotocol/server-everything', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = createHarness({
      everything: { command: process.execPath, args: [everythingServer, 'stdio'], trustAnnotations: true },
    });
    await harness.bridge.start();
  });
  afterAll(() => harness.stop());

  it('registers the server tools under mcp__everything__ names with their schemas and trusted annotations', () => {
    expect(harness.toolNames()).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__everything__get-sum',
        'mcp__everything__get-tiny-image',
      ]),
    );
    const echo = harness.registry.get('mcp__everything__echo')?.tool;
    expect(echo?.mcp).toEqual({ server: 'everything', originalName: 'echo' });
    expect(echo?.parametersJsonSchema).toMatchObject({ type: 'object', required: ['message'] });
    expect(echo?.annotations).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    });
    expect(echo?.description).toMatch(/echo/i);
    expect(echo?.capabilities).toEqual({});
    expect(harness.bridge.status()).toEqual([
      expect.objectContaining({ server: 'everything', state: 'connected', transport: 'stdio', attempt: 0 }),
    ]);
  });

  it('makes the server instructions available', () => {
    expect(harness.bridge.instructions('everything')).toMatch(/Everything Server/);
    expect(harness.bridge.instructions('nobody')).toBeUndefined();
  });

  it('echoes a message through the server', async () => {
    const { result } = await harness.call('mcp__everything__echo', { message: 'hello through the bridge' });
    expect(successText(result)).toBe('Echo: hello through the bridge');
  });

  it('adds two numbers with get-sum', async () => {
    const { result } = await harness.call('mcp__everything__get-sum', { a: 19, b: 23 });
    expect(successText(result)).toContain('42');
  });

  it('passes the server validation failure back as a failed result', async () => {
    const { result } = await harness.call('mcp__everything__get-sum', { a: 'nineteen' });
    expect(result.ok).toBe(false);
  });

  it('turns progress notifications of a long-running operation into progress emissions, ending with the last', async () => {
    const { result, emissions } = await harness.call('mcp__everything__trigger-long-running-operation', {
      duration: 0.3,
      steps: 3,
    });
    expect(successText(result)).toContain('Long running operation completed');
    expect(emissions[0]).toEqual({ type: 'progress', progress: 1, total: 3, message: undefined });
    expect(emissions.at(-1)).toEqual({ type: 'progress', progress: 3, total: 3, message: undefined });
  });

  it('ends an aborted long-running operation as aborted without waiting for it', async () => {
    const controller = new AbortController();
    const pending = harness.call(
      'mcp__everything__trigger-long-running-operation',
      { duration: 30, steps: 30 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 1_200);
    const { result, emissions } = await pending;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    expect(emissions.length).toBeGreaterThan(0);
    expect(emissions.length).toBeLessThan(30);
    const { result: after } = await harness.call('mcp__everything__echo', { message: 'still alive' });
    expect(successText(after)).toBe('Echo: still alive');
  });

  it('returns the tiny image as an attachment with its mime type', async () => {
    const { result } = await harness.call('mcp__everything__get-tiny-image', {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const image = result.attachments?.find((attachment) => attachment.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(
      Buffer.from(image?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    expect(result.value).toContain('[image image/png');
  });

  it('keeps structured content as structured data', async () => {
    const { result } = await harness.call('mcp__everything__get-structured-content', { location: 'Chicago' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.structured).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
  });

  it('renders an embedded text resource in the value and keeps it as a resource attachment', async () => {
    const { result } = await harness.call('mcp__everything__get-resource-reference', {
      resourceType: 'Text',
      resourceId: 1,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const resource = result.attachments?.find((attachment) => attachment.type === 'resource');
    expect(resource?.uri).toMatch(/^demo:\/\//);
    expect(result.value).toContain(`[resource ${resource?.uri}]`);
    expect(resource?.text).toBeTruthy();
  });

  it('renders resource links and keeps them as resource attachments', async () => {
    const { result } = await harness.call('mcp__everything__get-resource-links', { count: 2 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const links = result.attachments?.filter((attachment) => attachment.type === 'resource') ?? [];
    expect(links).toHaveLength(2);
    for (const link of links) expect(result.value).toContain(link.uri);
  });

  it('passes the server’s outputSchema through on the tool definition', () => {
    const tool = harness.registry.get('mcp__everything__get-structured-content')?.tool;
    expect(tool?.outputSchema).toMatchObject({
      type: 'object',
      properties: { temperature: expect.anything() },
    });
    expect(harness.registry.get('mcp__everything__echo')?.tool.outputSchema).toBeUndefined();
  });

  it('keeps the description of a resource link with its attachment', async () => {
    const { result } = await harness.call('mcp__everything__get-resource-links', { count: 1 });
    if (!result.ok) throw new Error(result.error);
    expect(result.attachments).toContainEqual(
      expect.objectContaining({ type: 'resource', description: 'Resource 1: plaintext resource' }),
    );
  });

  it('keeps the audience and priority a server put on an attached image', async () => {
    const { result } = await harness.call('mcp__everything__get-annotated-message', {
      messageType: 'success',
      includeImage: true,
    });
    if (!result.ok) throw new Error(result.error);
    const image = result.attachments?.find((attachment) => attachment.type === 'image');
    expect(image?.annotations).toMatchObject({ audience: expect.any(Array), priority: expect.any(Number) });
  });
});
