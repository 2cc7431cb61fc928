import { stat } from 'node:fs/promises';
import type { ToolContext, ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SPILL_LIMIT_BYTES, type TerminalRunData, terminalTool } from '../src/index.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

const run = (args: { command: string; timeout_ms?: number }, ctx: ToolContext) =>
  Promise.resolve(terminalTool.execute(args, ctx));
const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);
const dataOf = (result: ToolResult) => result.structured as TerminalRunData;

describe('spill files', () => {
  it('are capped at 64 MiB unless the process backend says otherwise', () => {
    expect(DEFAULT_SPILL_LIMIT_BYTES).toBe(64 * 1024 * 1024);
  });

  it('stop growing at the limit and the result says the file holds only the beginning', async () => {
    const limit = 1024 * 1024;
    const { ctx } = await createContext(workspace, { spillLimitBytes: limit });
    const result = await run({ command: "head -c 5000000 /dev/zero | tr '\\0' y; echo; echo the-end" }, ctx);
    expect(result.ok).toBe(true);
    const data = dataOf(result);
    expect(data.outputBytes).toBe(5_000_000 + 9);
    expect(data.spillCapped).toBe(true);
    expect(data.spillFile).toBeDefined();
    expect((await stat(data.spillFile as string)).size).toBe(limit);
    expect(textOf(result).split('\n')[0]).toContain(
      `the beginning of the output (up to the spill limit) in ${data.spillFile}`,
    );
    expect(textOf(result)).toContain('the-end');
  });

  it('are bounded and named in the result of a command that timed out while flooding its output', async () => {
    const limit = 2 * 1024 * 1024;
    const { ctx } = await createContext(workspace, { spillLimitBytes: limit });
    const result = await run({ command: 'yes', timeout_ms: 1_500 }, ctx);
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    const data = dataOf(result);
    expect(data.timedOut).toBe(true);
    expect(data.spillFile).toBeDefined();
    expect((await stat(data.spillFile as string)).size).toBeLessThanOrEqual(limit);
    expect(textOf(result).split('\n')[0]).toContain(data.spillFile as string);
  });

  it('keep the whole output when it stays under the limit', async () => {
    const { ctx } = await createContext(workspace, { spillLimitBytes: 1024 * 1024 });
    const result = await run({ command: "head -c 200000 /dev/zero | tr '\\0' y" }, ctx);
    const data = dataOf(result);
    expect(data.spillCapped).toBeUndefined();
    expect((await stat(data.spillFile as string)).size).toBe(200_000);
    expect(textOf(result).split('\n')[0]).toContain(`full output in ${data.spillFile}`);
  });
});
