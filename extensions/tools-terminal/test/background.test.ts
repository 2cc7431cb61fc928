import type { ToolContext, ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  terminalListTool,
  terminalReadTool,
  terminalStartTool,
  terminalStopTool,
  terminalWriteTool,
} from '../src/index.js';
import { createContext, createWorkspace, TestSessionState, type TestWorkspace } from './context.js';
import { processesWithMarker, uniqueMarker, waitForProcesses } from './survivors.js';

let workspace: TestWorkspace;
let session: TestSessionState;
let ctx: ToolContext;
beforeEach(async () => {
  workspace = await createWorkspace();
  session = new TestSessionState();
  ctx = (await createContext(workspace, { session })).ctx;
});
afterEach(async () => {
  await session.end();
  await workspace.cleanup();
});

const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);
const start = async (command: string) => {
  const result = await terminalStartTool.execute({ command }, ctx);
  expect(result.ok).toBe(true);
  return (result.structured as { id: string }).id;
};
const read = async (id: string, wait_ms?: number) =>
  terminalReadTool.execute(wait_ms === undefined ? { id } : { id, wait_ms }, ctx);

async function readUntil(id: string, expected: string): Promise<string> {
  let seen = '';
  for (let attempt = 0; attempt < 200 && !seen.includes(expected); attempt++) {
    seen += textOf(await read(id));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return seen;
}

describe('background shells', () => {
  it('returns only the output written since the last read', async () => {
    const id = await start('echo first; read line; echo "got $line"; sleep 30');
    expect(await readUntil(id, 'first')).toContain('first');
    await terminalWriteTool.execute({ id, text: 'hello\n' }, ctx);
    const next = await readUntil(id, 'got hello');
    expect(next).toContain('got hello');
    expect(next).not.toContain('first');
    expect(textOf(await read(id))).toMatch(/running · pid \d+[^\n]*\]\n\(no new output\)/);
  });

  it('reports the exit code once the command has finished', async () => {
    const id = await start('echo done; exit 4');
    const result = await read(id, 5_000);
    expect(textOf(result)).toContain('exited with code 4');
    expect(textOf(result)).toContain('done');
    expect(result.structured).toMatchObject({ running: false, exitCode: 4 });
  });

  it('closes standard input on request so the command can finish', async () => {
    const id = await start('wc -l');
    await terminalWriteTool.execute({ id, text: 'one\ntwo\n', end_input: true }, ctx);
    const result = await read(id, 5_000);
    expect(textOf(result)).toMatch(/exited with code 0[^\n]*\]\n\s*2\n/);
  });

  it('stops a shell and its whole process tree', async () => {
    const marker = uniqueMarker('stop');
    const id = await start(`trap '' TERM; (exec -a ${marker} sleep 300) & wait`);
    await readUntil(id, 'running');
    await waitForProcesses(marker, 1);
    expect(processesWithMarker(marker).length).toBeGreaterThan(0);
    const stopped = await terminalStopTool.execute({ id }, ctx);
    expect(stopped.ok).toBe(true);
    expect(processesWithMarker(marker)).toEqual([]);
    expect(await read(id)).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('lists the shells of the session', async () => {
    const first = await start('sleep 30');
    const second = await start('echo quick');
    await read(second, 5_000);
    const listed = await terminalListTool.execute({}, ctx);
    expect(textOf(listed)).toContain(`${first} · running`);
    expect(textOf(listed)).toContain(`${second} · exited with code 0 · echo quick`);
  });

  it('stops every shell when the session ends', async () => {
    const marker = uniqueMarker('session');
    await start(`exec -a ${marker}-one sleep 300`);
    await start(`exec -a ${marker}-two sleep 300`);
    await waitForProcesses(marker, 2);
    await session.end();
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('refuses to write to a shell that has exited', async () => {
    const id = await start('true');
    // Wait for the exit however loaded the machine is: each read waits up to 5 s for it.
    for (let attempt = 0; attempt < 12; attempt++) {
      const result = await read(id, 5_000);
      if ((result.ok ? (result.structured as { running?: boolean } | undefined)?.running : true) === false)
        break;
    }
    expect(await terminalWriteTool.execute({ id, text: 'late\n' }, ctx)).toMatchObject({
      ok: false,
      code: 'conflict',
    });
  });

  it('refuses to start outside the workspace', async () => {
    const result = await terminalStartTool.execute({ command: 'sleep 1', cwd: workspace.outside }, ctx);
    expect(result).toMatchObject({ ok: false, code: 'path_outside_workspace' });
  });
});
