import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describeWithSystemTools } from '@quiver/test-utils';
import type { ToolResult } from '@quiver/types';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { terminalTool } from '../src/index.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';
import { processesWithMarker, uniqueMarker, waitForProcesses } from './survivors.js';

let workspace: TestWorkspace;
const cleanups: Array<() => void | Promise<void>> = [];
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await workspace.cleanup();
});

const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);
const run = async (command: string, sandbox: 'off' | 'required', unixSockets?: string[]) => {
  const { ctx } = await createContext(workspace, { sandbox, ...(unixSockets ? { unixSockets } : {}) });
  return Promise.resolve(terminalTool.execute({ command }, ctx));
};

/**
 * A command that daemonises the thorough way: a new session, a cleared environment, its output
 * closed and a double fork, so that neither the process tree, the run's marker nor its pipes
 * lead to the daemon. The marker is assembled by the shell so that only the daemon carries it.
 */
function daemonisingCommand(marker: string): string {
  const [head, tail] = [marker.slice(0, 7), marker.slice(7)];
  return (
    `h=${head}; ( setsid env -i /bin/bash -c "exec >/dev/null 2>&1 </dev/null; (exec -a \${h}${tail} /bin/sleep 300) & touch ready" & ); ` +
    'until [ -e ready ]; do sleep 0.05; done; sleep 0.3; echo started'
  );
}

/** Connects to a unix socket with Node (on PATH in and out of the sandbox) and prints the outcome. */
function connectCommand(socket: string): string {
  const script = `require('net').connect(process.argv[1]).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => console.log('refused:' + e.code))`;
  return `${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)} ${JSON.stringify(socket)}`;
}

async function listenOn(socket: string): Promise<void> {
  const server = net.createServer((connection) => connection.end());
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

describeWithSystemTools(['bwrap'])('the bubblewrap sandbox', () => {
  it('leaves nothing alive after a command whose daemon left its session, environment and output', async () => {
    const marker = uniqueMarker('daemon');
    const result = await run(daemonisingCommand(marker), 'required');
    expect(result.structured).toMatchObject({ sandboxed: true });
    expect(textOf(result)).toContain('started');
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('shows, as a control, that the same daemon outlives the call without the sandbox', async () => {
    const marker = uniqueMarker('daemon');
    cleanups.push(() => {
      for (const pid of processesWithMarker(marker)) process.kill(pid, 'SIGKILL');
    });
    const result = await run(daemonisingCommand(marker), 'off');
    expect(textOf(result)).toContain('started');
    await waitForProcesses(marker, 1);
  });

  it("shows a command only its own processes, never Quiver's environment", async () => {
    const result = await run(
      `ls /proc | grep -c '^[0-9]' ; cat /proc/${process.pid}/environ || echo "no process ${process.pid}"`,
      'required',
    );
    expect(textOf(result)).toContain(`no process ${process.pid}`);
    const visible = Number(/^(\d+)$/m.exec(textOf(result))?.[1]);
    expect(visible).toBeLessThan(10);
  });

  it('keeps .git/config and .git/hooks read-only, in nested repositories too, while the workspace stays writable', async () => {
    for (const repository of ['.', 'vendor/lib']) {
      await mkdir(path.join(workspace.root, repository, '.git/hooks'), { recursive: true });
      await writeFile(path.join(workspace.root, repository, '.git/config'), '[core]\n');
      await writeFile(path.join(workspace.root, repository, '.git/HEAD'), 'ref: refs/heads/main\n');
    }
    const result = await run(
      'echo "[core] hooksPath=/tmp" >> .git/config; echo evil > .git/hooks/pre-commit; ' +
        'echo evil > vendor/lib/.git/hooks/post-checkout; echo "[x]" >> vendor/lib/.git/config; ' +
        'echo ref > .git/HEAD && echo edited > notes.txt && echo done',
      'required',
    );
    expect(textOf(result)).toContain('done');
    expect(textOf(result)).toMatch(/Read-only file system/);
    expect(await readFile(path.join(workspace.root, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(await readFile(path.join(workspace.root, 'vendor/lib/.git/config'), 'utf8')).toBe('[core]\n');
    await expect(readFile(path.join(workspace.root, '.git/hooks/pre-commit'))).rejects.toThrow();
    await expect(
      readFile(path.join(workspace.root, 'vendor/lib/.git/hooks/post-checkout')),
    ).rejects.toThrow();
    expect(await readFile(path.join(workspace.root, 'notes.txt'), 'utf8')).toBe('edited\n');
  });

  it('hides unix sockets in the workspace and under /tmp that an unsandboxed command reaches', async () => {
    const inWorkspace = path.join(workspace.root, 'app.sock');
    const inTemp = path.join(workspace.outside, 'agent.sock');
    await listenOn(inWorkspace);
    await listenOn(inTemp);
    for (const socket of [inWorkspace, inTemp]) {
      expect(textOf(await run(connectCommand(socket), 'off'))).toContain('connected');
      const sandboxed = await run(connectCommand(socket), 'required');
      expect(textOf(sandboxed)).toMatch(/refused:(ECONNREFUSED|ENOENT)/);
      expect(textOf(sandboxed)).not.toContain('connected');
    }
  });

  it('lets a command reach exactly the unix sockets the personality grants', async () => {
    const granted = path.join(workspace.outside, 'granted.sock');
    const other = path.join(workspace.root, 'other.sock');
    await listenOn(granted);
    await listenOn(other);
    expect(textOf(await run(connectCommand(granted), 'required', [granted]))).toContain('connected');
    expect(textOf(await run(connectCommand(other), 'required', [granted]))).toMatch(/refused:ECONNREFUSED/);
  });
});
