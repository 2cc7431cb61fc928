import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { everythingServerYaml, write } from './helpers.js';
import { type JsonRpcReply, type RawChannel, rawChannelSuite } from './stdio-channel.js';

const isListChanged = (reply: JsonRpcReply) =>
  (reply as { method?: string }).method === 'notifications/tools/list_changed';

/**
 * A call that changes the session's tools without the plugin registry changing (tool_search
 * finding a deferred tool) is announced with tools/list_changed after the call's answer, with no
 * further request, and tools/list then lists the tool: on the lean path of a plain call and on
 * the SDK's route alike.
 */
describe('quiver serve after a call that changed the session’s tools', () => {
  const suite = rawChannelSuite('quiver-serve-refresh-');
  afterAll(suite.cleanup);

  const serve = async (): Promise<RawChannel> => {
    const dir = suite.make();
    write(
      path.join(dir, 'quiver.yaml'),
      ['defaultPersonality: dev', 'mcpServers:', everythingServerYaml(), ''].join('\n'),
    );
    write(
      path.join(dir, 'personalities/dev.yaml'),
      [
        'id: dev',
        'plugins: [mcp-bridge]',
        'mcpServers:',
        '  everything: { includeTools: [echo, get-sum] }',
        'deferLoading:',
        '  enabled: true',
        '  maxTools: 1',
        'permissions:',
        '  allow: [tool_search, mcp__everything__echo, mcp__everything__get-sum]',
        '',
      ].join('\n'),
    );
    const channel = await suite.serve(dir);
    return channel;
  };

  const listed = async (channel: RawChannel, id: string): Promise<string[]> => {
    await channel.send(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`);
    const reply = await channel.reply((candidate) => candidate.id === id);
    return (reply.result as { tools: { name: string }[] }).tools.map((tool) => tool.name);
  };

  for (const [route, meta] of [
    ['the lean path of a plain call', {}],
    ["the SDK's route", { _meta: {} }],
  ] as const)
    it(`announces it after the answer and lists the tool, on ${route}`, async () => {
      const channel = await serve();
      const search = async (id: string, query: string) => {
        const request = {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'tool_search', arguments: { query }, ...meta },
        };
        await channel.send(`${JSON.stringify(request)}\n`);
        return channel.reply((reply) => reply.id === id);
      };
      // The server connected and one of its tools found: what the connection announces settles.
      for (let attempt = 0; ; attempt++) {
        const found = await search(`sum-${attempt}`, 'get-sum');
        if (JSON.stringify(found.result).includes('mcp__everything__get-sum')) break;
        if (attempt > 300) throw new Error('the bridged server never connected');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await listed(channel, 'list-1')).not.toContain('mcp__everything__echo');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const from = channel.replies.length;
      const answer = await search('echo', 'echo');
      expect(JSON.stringify(answer.result)).toContain('mcp__everything__echo');
      const announced = () => channel.replies.slice(from).findIndex(isListChanged);
      await expect.poll(announced, { timeout: 10_000 }).toBeGreaterThanOrEqual(0);
      // After the call's answer on the wire, not before it.
      expect(announced() + from).toBeGreaterThan(channel.replies.indexOf(answer));
      expect(await listed(channel, 'list-2')).toContain('mcp__everything__echo');
    }, 60_000);
});
