import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quiver, write } from './helpers.js';
import {
  catalogServers,
  catalogWorkspace,
  estimatedTokens,
  FIRST_PARTY_PLUGINS,
  PATIENT,
  searchTools,
  untilServersConnected,
} from './serve-catalog-fixtures.js';
import { connectStdio, textOf } from './serve-fixtures.js';

const ISSUE = { owner: 'quiver', repo: 'quiver', title: 'Deferred tools stay callable' };

describe('quiver serve with the 27 catalog servers configured and no flags', { timeout: 240_000 }, () => {
  let workspace: ReturnType<typeof catalogWorkspace>;
  let served: Awaited<ReturnType<typeof connectStdio>>;
  let firstList: string[];
  let listChanged = 0;

  beforeAll(async () => {
    workspace = catalogWorkspace({
      personality: [
        'permissions:',
        '  allow: [tool_search, mcp__server-github__*]',
        '  deny: [mcp__server-slack__slack_post_message]',
      ].join('\n'),
    });
    write(
      path.join(workspace.dir, 'personalities/first-party.yaml'),
      `id: first-party\nplugins: [${FIRST_PARTY_PLUGINS.join(', ')}]\n`,
    );
    served = await connectStdio(workspace.dir, { timeoutMs: PATIENT.timeout });
    served.client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged += 1;
    });
    // The one tools/list of a client that never re-lists: servers may still be connecting.
    firstList = (await served.client.listTools(undefined, PATIENT)).tools.map((tool) => tool.name);
    await untilServersConnected(served.client, catalogServers(), 240_000);
  }, 600_000);
  afterAll(async () => {
    await served?.client.close();
    workspace?.cleanup();
  });

  it('offers tool_search and call_tool from the first tools/list on', () => {
    expect(firstList).toEqual(expect.arrayContaining(['tool_search', 'call_tool']));
  });

  it('calls a tool found by tool_search by its name, without listing the tools again', async () => {
    const [found] = await searchTools(served.client, 'create issue github');
    expect(found).toBe('mcp__server-github__create_issue');
    expect(firstList).not.toContain(found);
    const result = await served.client.callTool({ name: found as string, arguments: ISSUE }, PATIENT);
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({
      server: 'server-github',
      tool: 'create_issue',
      arguments: ISSUE,
    });
  });

  it('calls a tool found by tool_search through call_tool, for clients that only call listed tools', async () => {
    const result = await served.client.callTool(
      {
        name: 'call_tool',
        arguments: {
          name: 'mcp__server-github__list_issues',
          arguments: { owner: 'quiver', repo: 'quiver' },
        },
      },
      PATIENT,
    );
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toMatchObject({ tool: 'list_issues', arguments: { owner: 'quiver' } });
  });

  it('applies the deny rules and the headless permission check on both call paths', async () => {
    expect(await searchTools(served.client, '/slack_post_message/')).toEqual([]);
    await expect(
      served.client.callTool({ name: 'mcp__server-slack__slack_post_message', arguments: {} }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('slack_post_message') });
    const denied = await served.client.callTool({
      name: 'call_tool',
      arguments: {
        name: 'mcp__server-slack__slack_post_message',
        arguments: { channel_id: 'C1', text: 'hi' },
      },
    });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/\[not_available\].*denied/);
    const asked = await served.client.callTool({
      name: 'call_tool',
      arguments: { name: 'mcp__server-slack__slack_list_channels', arguments: {} },
    });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toContain('[not_permitted]');
    expect(textOf(asked)).toContain('mcp__server-slack__slack_list_channels');
  });

  it('answers a call of an unknown tool with JSON-RPC error -32602, not a tool result', async () => {
    await expect(served.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('no_such_tool'),
    });
  });

  it('announces what tool_search found with list_changed, and a client that re-lists sees it', async () => {
    const before = listChanged;
    const [found] = await searchTools(served.client, 'merge pull request github');
    expect(found).toBe('mcp__server-github__merge_pull_request');
    await expect.poll(() => listChanged, { timeout: 10_000 }).toBeGreaterThan(before);
    const listed = (await served.client.listTools(undefined, PATIENT)).tools.map((tool) => tool.name);
    expect(listed).toContain(found);
  });

  it('lists every first-party tool in at most 12,000 estimated tokens once all 598 server tools are there', async () => {
    const firstParty = await quiver(['--trust-project', 'tools', '--json', '-p', 'first-party'], {
      cwd: workspace.dir,
    });
    const expected = (JSON.parse(firstParty.stdout) as { tools: Array<{ name: string }> }).tools.map(
      (tool) => tool.name,
    );
    expect(expected.length).toBeGreaterThan(20);
    const { tools } = await served.client.listTools(undefined, PATIENT);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([...expected, 'tool_search', 'call_tool']),
    );
    expect(estimatedTokens(tools)).toBeLessThanOrEqual(12_000);
    // The largest catalog (118 tools) is there, behind tool_search.
    expect(await searchTools(served.client, '/^mcp__mcp-gitlab__/', 10)).toHaveLength(10);
  });
});
