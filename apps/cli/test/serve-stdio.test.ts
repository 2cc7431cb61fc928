import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectStdio, recordProgress, serveWorkspace, textOf } from './serve-fixtures.js';

describe('quiver serve over stdio', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const start = async (options: { elicitation?: boolean } = {}) => {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    const connection = await connectStdio(workspace.dir, options);
    cleanups.push(() => connection.client.close());
    return { ...connection, dir: workspace.dir };
  };
  // One server for the tests that only read the pool or run calls: spawning is the slow part.
  let shared: Awaited<ReturnType<typeof connectStdio>> & { dir: string };
  const sharedCleanups: Array<() => Promise<void> | void> = [];
  beforeAll(async () => {
    const workspace = serveWorkspace();
    sharedCleanups.push(workspace.cleanup);
    shared = { ...(await connectStdio(workspace.dir)), dir: workspace.dir };
    sharedCleanups.push(() => shared.client.close());
  });
  afterAll(async () => {
    for (const cleanup of sharedCleanups.splice(0).reverse()) await cleanup();
  });
  const names = async (client: Client) =>
    (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.map((tool) => tool.name);

  it("lists the personality's tools and leaves out plugins it does not enable", async () => {
    const { client, stderr } = shared;
    const listed = await names(client);
    expect(listed).toEqual(
      expect.arrayContaining(['read_file', 'list_dir', 'terminal', 'count_slowly', 'add_tool']),
    );
    expect(listed).not.toContain('kanban_list');
    expect(listed).not.toContain('memory_search');
    expect(stderr()).toMatch(/quiver serve: \d+ tools \(~\d+ tokens\) of personality "dev" on stdio/);
  });

  it('reads a workspace file through read_file', async () => {
    const { client } = shared;
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('The quick brown fox.');
  });

  it('refuses a terminal command no rule allows, naming the rule that would allow it', async () => {
    const { client, dir } = shared;
    const result = await client.callTool({
      name: 'terminal',
      arguments: { command: 'touch created-by-terminal' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('[not_permitted]');
    expect(textOf(result)).toContain('headless');
    expect(textOf(result)).toMatch(/add "terminal\(touch[^"]*\)" to permissions\.allow/);
    expect(existsSync(path.join(dir, 'created-by-terminal'))).toBe(false);
  });

  it('returns attachments as image and embedded resource content', async () => {
    const result = await shared.client.callTool({ name: 'render_swatch', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'one red pixel' },
      { type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
      {
        type: 'resource',
        resource: { uri: 'file:///swatch-notes.txt', mimeType: 'text/plain', text: 'red, 1x1' },
      },
    ]);
  });

  it('sends read_file as the file text without a structuredContent that lacks it', async () => {
    const result = await shared.client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
    expect(textOf(result)).toContain('The quick brown fox.');
    expect(result.structuredContent).toBeUndefined();
  });

  it('leaves out a structured part that says less than the text', async () => {
    const result = await shared.client.callTool({ name: 'count_slowly', arguments: { steps: 1 } });
    expect(textOf(result)).toBe('counted to 1');
    expect(result.structuredContent).toBeUndefined();
  });

  it('reports arguments that do not match the schema as input_invalid', async () => {
    const { client } = shared;
    const result = await client.callTool({ name: 'read_file', arguments: { path: 42 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('[input_invalid]');
  });

  it('forwards progress and partial results of a running call as progress notifications', async () => {
    const { client, transport } = shared;
    const notices = recordProgress(transport);
    const result = await client.callTool(
      { name: 'count_slowly', arguments: { steps: 3 } },
      { onprogress: () => {} },
    );
    expect(textOf(result)).toBe('counted to 3');
    expect(notices).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
      { progress: 4, message: 'all 3 counted' },
    ]);
  });

  it("sends a tool's log messages to its client from info up, and from the level the client sets", async () => {
    const { client } = await start();
    const received: Array<{ level: string; logger?: string; data: unknown }> = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      received.push(notification.params as { level: string; logger?: string; data: unknown });
    });
    expect(textOf(await client.callTool({ name: 'log_steps', arguments: {} }))).toBe('logged');
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received).toEqual([
      { level: 'info', logger: 'log_steps', data: 'step one done' },
      { level: 'warning', logger: 'log_steps', data: 'step two was slow' },
    ]);
    received.length = 0;
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'log_steps', arguments: {} });
    await vi.waitFor(() => expect(received.map((message) => message.level)).toEqual(['warning']));
  });

  it('aborts the tool when the client cancels the call', async () => {
    const { client, dir } = shared;
    const marker = path.join(dir, 'aborted.txt');
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'wait_for_abort', arguments: { marker } },
      { signal: controller.signal, onprogress: () => controller.abort(new Error('user pressed stop')) },
    );
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 10_000 });
  });

  it('announces tools/list_changed when a plugin registers a tool while connected', async () => {
    const { client } = shared;
    expect(await names(client)).not.toContain('added_echo');
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    const added = await client.callTool({ name: 'add_tool', arguments: { name: 'added_echo' } });
    expect(textOf(added)).toBe('added added_echo');
    await changed;
    expect(await names(client)).toContain('added_echo');
    expect(textOf(await client.callTool({ name: 'added_echo', arguments: {} }))).toBe('added_echo ran');
  });

  it('asks a client that supports elicitation, and runs the call once it allows it', async () => {
    const { client, dir } = await start({ elicitation: true });
    const asked: string[] = [];
    let answer = 'once';
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return answer === 'decline'
        ? { action: 'decline' }
        : { action: 'accept', content: { decision: answer } };
    });
    const allowed = await client.callTool({ name: 'terminal', arguments: { command: 'touch allowed-once' } });
    expect(allowed.isError).toBeFalsy();
    expect(existsSync(path.join(dir, 'allowed-once'))).toBe(true);
    expect(asked[0]).toContain('Allow terminal: touch allowed-once?');

    answer = 'decline';
    const declined = await client.callTool({ name: 'terminal', arguments: { command: 'touch declined' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toContain('[not_permitted]');
    expect(asked).toHaveLength(2);
    expect(existsSync(path.join(dir, 'declined'))).toBe(false);
  });
});
