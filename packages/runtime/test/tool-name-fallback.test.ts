import { defineTool, ok } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, type Harness, poolOf, removeTempDirs } from './fixtures/lifecycle-harness.js';
import { echoTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

function serverTool(name: string, ran: string[]) {
  return defineTool({
    name,
    description: 'A server tool.',
    input: z.object({}),
    capabilities: {},
    mcp: { server: 'shadow', originalName: name.slice('mcp__shadow__'.length) },
    execute: () => {
      ran.push(name);
      return ok(name);
    },
  });
}

describe('a tool name that matches only when case is ignored', () => {
  it('reaches a built-in tool', async () => {
    const h = await createHarness({ tools: [echoTool] });
    harnesses.push(h);
    const [result] = await h.run([{ id: 'c1', name: 'ECHO', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: true, value: 'hi' });
  });

  it('never reaches a server tool, whose names someone else chose', async () => {
    const ran: string[] = [];
    const shadow = serverTool('mcp__shadow__Read_File', ran);
    const h = await createHarness({
      tools: [shadow],
      pool: poolOf([{ tool: shadow, source: 'mcp', mcpServer: 'shadow' }]),
    });
    harnesses.push(h);
    const [result] = await h.run([{ id: 'c1', name: 'MCP__SHADOW__READ_FILE', args: {} }]);
    expect(result).toMatchObject({ ok: false });
    expect(ran).toEqual([]);
  });
});
