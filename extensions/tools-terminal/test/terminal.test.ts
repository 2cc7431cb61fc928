import { mkdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext, ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TerminalRunData, terminalTool } from '../src/index.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';
import { processesWithMarker, uniqueMarker } from './survivors.js';

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

const run = (args: { command: string; cwd?: string; timeout_ms?: number }, ctx: ToolContext) =>
  Promise.resolve(terminalTool.execute(args, ctx));
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);
const dataOf = (result: ToolResult) => result.structured as TerminalRunData;

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('terminal', () => {
  it('runs a command in the first workspace root and reports its exit code and output', async () => {
    const { ctx } = await createContext(workspace);
    const result = await run({ command: 'pwd; echo to-stderr >&2' }, ctx);
    expect(result.ok).toBe(true);
    expect(textOf(result)).toContain(workspace.root);
    expect(textOf(result)).toContain('to-stderr');
    expect(dataOf(result)).toMatchObject({
      exitCode: 0,
      cwd: workspace.root,
      truncated: false,
      sandboxed: false,
    });
  });

  it('shows the output of a failing command in the error the model sees', async () => {
    const { ctx } = await createContext(workspace);
    const result = await run({ command: 'echo "config.json: unexpected token"; exit 3' }, ctx);
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(textOf(result)).toContain('exit code 3');
    expect(textOf(result)).toContain('config.json: unexpected token');
    expect(dataOf(result).exitCode).toBe(3);
  });

  it('runs in a subdirectory given as cwd', async () => {
    await mkdir(path.join(workspace.root, 'packages', 'app'), { recursive: true });
    const { ctx } = await createContext(workspace);
    const result = await run({ command: 'pwd', cwd: 'packages/app' }, ctx);
    expect(textOf(result)).toContain(path.join(workspace.root, 'packages', 'app'));
  });

  it('refuses a cwd outside the workspace, naming the resolved path', async () => {
    const { ctx } = await createContext(workspace);
    const result = await run({ command: 'pwd', cwd: workspace.outside }, ctx);
    expect(result).toMatchObject({ ok: false, code: 'path_outside_workspace' });
    expect(textOf(result)).toContain(workspace.outside);
    const viaParent = await run({ command: 'pwd', cwd: '../outside' }, ctx);
    expect(viaParent).toMatchObject({ ok: false, code: 'path_outside_workspace' });
  });

  it('refuses a symlink inside the workspace that points outside it', async () => {
    await symlink(workspace.outside, path.join(workspace.root, 'link-out'));
    const { ctx } = await createContext(workspace);
    const result = await run({ command: 'touch escaped', cwd: 'link-out' }, ctx);
    expect(result).toMatchObject({ ok: false, code: 'path_outside_workspace' });
    expect(textOf(result)).toContain(workspace.outside);
    await expect(stat(path.join(workspace.outside, 'escaped'))).rejects.toThrow();
  });

  it('kills a timed-out command and says it timed out', async () => {
    const marker = uniqueMarker('timeout');
    const { ctx } = await createContext(workspace);
    const result = await run({ command: `echo begun; exec -a ${marker} sleep 60`, timeout_ms: 300 }, ctx);
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    expect(textOf(result)).toContain('timed out');
    expect(textOf(result)).toContain('begun');
    expect(dataOf(result).timedOut).toBe(true);
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('uses the timeout the runtime put in the context when the call gives none', async () => {
    const { ctx } = await createContext(workspace, { timeoutMs: 200 });
    const result = await run({ command: 'sleep 30' }, ctx);
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
  });

  it('leaves no process alive after an abort, even children that ignore SIGTERM or called setsid', async () => {
    const marker = uniqueMarker('abort');
    const controller = new AbortController();
    const { ctx, emissions } = await createContext(workspace, { signal: controller.signal });
    const command = [
      "trap '' TERM",
      `(trap '' TERM; exec -a ${marker}-ignores-term sleep 300) &`,
      `setsid bash -c 'exec -a ${marker}-own-session sleep 300' &`,
      `bash -c "trap '' TERM; while true; do sleep 1; done # ${marker}-loop" &`,
      'echo started',
      'wait',
    ].join('\n');
    const pending = run({ command }, ctx);
    try {
      // The shell itself carries the marker in its command line, and so do its three children.
      await waitFor(() => processesWithMarker(marker).length >= 4, 'the three children to start');
      await waitFor(
        () => emissions.some((emission) => emission.type === 'partial' && emission.text.includes('started')),
        'output',
      );
    } finally {
      controller.abort();
    }
    const result = await pending;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    expect(dataOf(result).aborted).toBe(true);
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('kills background processes a finished command left behind', async () => {
    const marker = uniqueMarker('leftover');
    const { ctx } = await createContext(workspace);
    const result = await run({ command: `(exec -a ${marker} sleep 300) & echo done` }, ctx);
    expect(result.ok).toBe(true);
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('kills a daemon that left with a clean environment in its own session but kept the output open', async () => {
    const marker = uniqueMarker('daemon');
    const { ctx } = await createContext(workspace);
    const result = await run(
      { command: `env -i /usr/bin/setsid /bin/bash -c 'exec -a ${marker} /bin/sleep 300' & echo started` },
      ctx,
    );
    expect(textOf(result)).toContain('started');
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('streams output as partial results while the command runs', async () => {
    const { ctx, emissions } = await createContext(workspace);
    await run({ command: 'echo first; sleep 0.3; echo second' }, ctx);
    const partials = emissions
      .filter((emission) => emission.type === 'partial')
      .map((emission) => emission.text);
    expect(partials.length).toBeGreaterThanOrEqual(2);
    expect(partials.join('')).toBe('first\nsecond\n');
  });

  it('streams and returns a single 1 MB line', async () => {
    const { ctx, emissions } = await createContext(workspace);
    const result = await run(
      { command: "head -c 1048576 /dev/zero | tr '\\0' y; echo; echo end-of-line" },
      ctx,
    );
    const data = dataOf(result);
    expect(data.outputBytes).toBe(1048576 + 1 + 'end-of-line\n'.length);
    expect(data.truncated).toBe(true);
    expect(textOf(result)).toContain('end-of-line');
    expect(textOf(result)).toMatch(/^\[exit code 0[^\n]*\]\nyyyy/);
    const streamed = emissions.map((emission) => (emission.type === 'partial' ? emission.text : '')).join('');
    expect(streamed).toContain('yyyy');
    const spilled = await readFile(data.spillFile as string, 'utf8');
    expect(spilled.length).toBe(data.outputBytes);
    expect(spilled.endsWith('end-of-line\n')).toBe(true);
  });

  it('keeps memory bounded while a command prints 200 MB, spilling its first 64 MiB to a file', async () => {
    const { ctx, emissions } = await createContext(workspace);
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    const result = await run(
      { command: "head -c 200M /dev/zero | tr '\\0' x; echo; echo the-last-line" },
      ctx,
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    const data = dataOf(result);
    expect(result.ok).toBe(true);
    expect(data.outputBytes).toBe(200 * 1024 * 1024 + 1 + 'the-last-line\n'.length);
    expect((await stat(data.spillFile as string)).size).toBe(64 * 1024 * 1024);
    expect(data.spillCapped).toBe(true);
    expect(path.dirname(data.spillFile as string)).toBe(path.join(workspace.dataDir, 'terminal'));
    expect(textOf(result)).toContain('the-last-line');
    expect(textOf(result)).toContain(data.spillFile as string);
    expect(textOf(result).length).toBeLessThan(70 * 1024);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    const streamed = emissions.reduce(
      (sum, emission) => sum + (emission.type === 'partial' ? emission.text.length : 0),
      0,
    );
    expect(streamed).toBeLessThan(5 * 1024 * 1024);
  });

  it('removes spill files older than a day when it spills again', async () => {
    const spillDir = path.join(workspace.dataDir, 'terminal');
    await mkdir(spillDir, { recursive: true });
    const old = path.join(spillDir, 'output-1-1-old.log');
    const recent = path.join(spillDir, 'output-2-2-recent.log');
    await writeFile(old, 'old output');
    await writeFile(recent, 'recent output');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    const { ctx } = await createContext(workspace);
    const result = await run({ command: 'seq 1 100000' }, ctx);
    expect(dataOf(result).spillFile).toBeDefined();
    for (let attempt = 0; attempt < 100 && (await exists(old)); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await exists(old)).toBe(false);
    expect(await exists(recent)).toBe(true);
  });

  it('keeps secret-looking variables out of the command environment', async () => {
    const sourceEnv = {
      ...process.env,
      FAKE_API_TOKEN: 'tok-123',
      DB_PASSWORD: 'hunter2',
      AWS_REGION: 'eu-west-1',
      LANG: 'C.UTF-8',
    };
    const { ctx } = await createContext(workspace, { sourceEnv });
    const result = await run({ command: 'env' }, ctx);
    expect(textOf(result)).not.toContain('FAKE_API_TOKEN');
    expect(textOf(result)).not.toContain('hunter2');
    expect(textOf(result)).not.toContain('AWS_REGION');
    expect(textOf(result)).toContain('LANG=C.UTF-8');
    expect(textOf(result)).toContain('PATH=');
  });

  it('filters secrets out even when a process backend put them in the base environment', async () => {
    const { ctx } = await createContext(workspace);
    const handle = ctx.capabilities.process as NonNullable<typeof ctx.capabilities.process>;
    ctx.capabilities.process = { ...handle, baseEnv: { ...handle.baseEnv, LEAKED_SERVICE_TOKEN: 'leak-1' } };
    const result = await run({ command: 'env' }, ctx);
    expect(textOf(result)).not.toContain('leak-1');
  });

  it('passes a secret the personality granted to the tool', async () => {
    const sourceEnv = { ...process.env, FAKE_API_TOKEN: 'tok-123' };
    const { ctx } = await createContext(workspace, { sourceEnv, granted: { FAKE_API_TOKEN: 'tok-granted' } });
    const result = await run({ command: 'echo "token=$FAKE_API_TOKEN"' }, ctx);
    expect(textOf(result)).toContain('token=tok-granted');
  });

  it('does not split a multi-byte character where the middle is cut', async () => {
    const script = path.join(workspace.root, 'print.mjs');
    await writeFile(script, "process.stdout.write('a' + 'é'.repeat(100_000) + '\\n');");
    const { ctx } = await createContext(workspace);
    const result = await run({ command: 'node print.mjs' }, ctx);
    expect(dataOf(result).truncated).toBe(true);
    expect(textOf(result)).not.toContain('\uFFFD');
  });
});
