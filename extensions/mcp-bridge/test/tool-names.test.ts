import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TOOL_NAME_PATTERN } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { assignToolNames } from '../src/index.js';

const catalogDir = '/work/shared/data/mcp-catalogs';

async function loadCatalogs(): Promise<Array<{ server: string; tools: string[] }>> {
  const files = (await readdir(catalogDir)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => {
      const catalog = JSON.parse(await readFile(join(catalogDir, file), 'utf8')) as {
        server: string;
        tools: Array<{ name: string }>;
      };
      return { server: catalog.server, tools: catalog.tools.map((tool) => tool.name) };
    }),
  );
}

describe('names of MCP tools', () => {
  it('gives every tool of the 27 real catalogs a valid, unique name of at most 64 characters', async () => {
    const catalogs = await loadCatalogs();
    const all = new Map<string, string>();
    let count = 0;
    for (const { server, tools } of catalogs) {
      const names = assignToolNames(server, tools);
      for (const original of tools) {
        const name = names.get(original);
        expect(name, `${server}/${original}`).toMatch(TOOL_NAME_PATTERN);
        expect(name?.startsWith(`mcp__${server}__`.slice(0, 55))).toBe(true);
        expect(all.has(name ?? ''), `${name} is taken by ${all.get(name ?? '')}`).toBe(false);
        all.set(name ?? '', `${server}/${original}`);
        count += 1;
      }
    }
    expect(catalogs).toHaveLength(27);
    expect(count).toBe(598);
  });

  it('keeps a short valid name readable as mcp__server__tool', () => {
    expect(assignToolNames('github', ['create_issue']).get('create_issue')).toBe('mcp__github__create_issue');
  });

  it('shortens a long name to a readable prefix and a stable hash of the full name', () => {
    const long = 'get_the_complete_list_of_every_pull_request_review_comment_in_a_repository';
    const name = assignToolNames('github', [long]).get(long);
    expect(name).toHaveLength(64);
    expect(name).toBe('mcp__github__get_the_complete_list_of_every_pull_reques_0d307a44');
    expect(assignToolNames('github', ['other', long]).get(long)).toBe(name);
  });

  it('sanitizes characters a provider rejects', () => {
    const names = assignToolNames('docs', ['search.pages', 'fetch page']);
    expect([...names.values()].every((name) => TOOL_NAME_PATTERN.test(name))).toBe(true);
    expect(names.get('search.pages')).toBe('mcp__docs__search_pages');
  });

  it('resolves collisions after sanitizing the same way whatever the listing order', () => {
    const tools = ['read.file', 'read_file', 'read file', 'read-file'];
    const forward = assignToolNames('fs', tools);
    const backward = assignToolNames('fs', [...tools].reverse());
    expect(forward).toEqual(backward);
    expect(forward.get('read_file')).toBe('mcp__fs__read_file');
    expect(new Set(forward.values()).size).toBe(4);
    for (const name of forward.values()) expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it('names the same tools the same way in a shuffled real catalog', async () => {
    const [catalog] = await loadCatalogs();
    if (catalog === undefined) throw new Error('no catalog');
    const shuffled = [...catalog.tools].sort(() => Math.random() - 0.5);
    expect(assignToolNames(catalog.server, shuffled)).toEqual(assignToolNames(catalog.server, catalog.tools));
  });
});
