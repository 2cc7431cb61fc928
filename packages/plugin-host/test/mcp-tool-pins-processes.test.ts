import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { approveMcpToolDefinition, mcpToolPinsPath, openMcpToolPins, readMcpToolPins } from '../src/index.js';
import { tempDir } from './helpers.js';

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TOOLS_PER_PROCESS = 150;

/** A separate Quiver process pinning its own tools, as a second `quiver serve` or `call` would. */
const PINNER = `
await import('reflect-metadata');
const { openMcpToolPins } = await import('@quiver/plugin-host');
const [workspace, prefix, count, startAt] = process.argv.slice(1);
const pins = openMcpToolPins(workspace);
// Both processes start pinning at the same moment, whatever their start-up took.
await new Promise((resolve) => setTimeout(resolve, Number(startAt) - Date.now()));
for (let index = 0; index < Number(count); index += 1) {
  const tool = prefix + index;
  pins.pin('shared', tool, { hash: tool, definition: { name: tool }, at: new Date().toISOString() });
}
`;

function runPinner(
  workspace: string,
  prefix: string,
  startAt: number,
  env: NodeJS.ProcessEnv,
): Promise<number | null> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', PINNER, workspace, prefix, String(TOOLS_PER_PROCESS), String(startAt)],
    { cwd: packageDir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return new Promise((resolve) => child.on('exit', resolve));
}

describe('the MCP pin file shared by several processes', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function dirs() {
    const workspace = tempDir('quiver-pin-lock-ws-');
    const data = tempDir('quiver-pin-lock-xdg-');
    cleanups.push(workspace.cleanup, data.cleanup);
    return { workspace: workspace.dir, env: { XDG_DATA_HOME: data.dir } };
  }

  it('keeps every pin when two processes pin tools at the same time', async () => {
    const { workspace, env } = dirs();
    const startAt = Date.now() + 2_000;
    const codes = await Promise.all([
      runPinner(workspace, 'a_', startAt, env),
      runPinner(workspace, 'b_', startAt, env),
    ]);
    expect(codes).toEqual([0, 0]);
    const pinned = Object.keys(readMcpToolPins(workspace, env)?.servers.shared ?? {});
    expect(pinned).toHaveLength(2 * TOOLS_PER_PROCESS);
  }, 60_000);

  it('keeps the first pin of a tool when another process pins a different definition later', () => {
    const { workspace, env } = dirs();
    const first = openMcpToolPins(workspace, env);
    const second = openMcpToolPins(workspace, env);
    const at = '2026-01-01T00:00:00.000Z';
    first.pin('shared', 'fetch_notes', { hash: 'first', definition: { name: 'fetch_notes' }, at });
    second.pin('shared', 'fetch_notes', { hash: 'second', definition: { name: 'fetch_notes' }, at });
    expect(first.pinned('shared', 'fetch_notes')?.hash).toBe('first');
  });

  it('takes over a lock its holder left behind when it died', () => {
    const { workspace, env } = dirs();
    const pins = openMcpToolPins(workspace, env);
    const at = '2026-01-01T00:00:00.000Z';
    pins.pin('shared', 'fetch_notes', { hash: 'a', definition: { name: 'fetch_notes' }, at });
    // A pid far above any pid_max a kernel allows: no process holds it.
    writeFileSync(`${mcpToolPinsPath(workspace, env)}.lock`, '99999999\n');
    pins.quarantine('shared', 'fetch_notes', { hash: 'b', definition: { name: 'fetch_notes' }, at });
    expect(
      approveMcpToolDefinition(workspace, { server: 'shared', tool: 'fetch_notes', hash: 'b' }, env),
    ).toBe(true);
    expect(pins.pinned('shared', 'fetch_notes')?.hash).toBe('b');
  });
});
