import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describeWithSystemTools, itWithSystemTools } from '@quiver/test-utils';
import type { ToolContext, ToolResult } from '@quiver/types';
import { afterEach, beforeEach, expect } from 'vitest';
import { allocatedTerminalsDirectory } from '../src/allocated-terminals.js';
import { terminalReadTool, terminalStartTool, terminalStopTool, terminalWriteTool } from '../src/index.js';
import { createContext, createWorkspace, TestSessionState, type TestWorkspace } from './context.js';

let workspace: TestWorkspace;
let session: TestSessionState;
beforeEach(async () => {
  workspace = await createWorkspace();
  session = new TestSessionState();
});
afterEach(async () => {
  await session.end();
  await workspace.cleanup();
});

const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);

async function contextFor(
  sandbox: 'off' | 'required',
  sourceEnv: Record<string, string | undefined> = process.env,
) {
  return (await createContext(workspace, { session, sandbox, sourceEnv })).ctx;
}

async function startPty(ctx: ToolContext, command: string, size: { cols?: number; rows?: number } = {}) {
  const result = await terminalStartTool.execute({ command, pty: true, ...size }, ctx);
  expect(result, textOf(result)).toMatchObject({ ok: true });
  return (result.structured as { id: string }).id;
}

async function readUntil(ctx: ToolContext, id: string, expected: RegExp): Promise<string> {
  let seen = '';
  for (let attempt = 0; attempt < 400 && !expected.test(seen); attempt++) {
    seen += textOf(await terminalReadTool.execute({ id }, ctx)).replace(
      /^\[[^\]\n]*\]\n(\(no new output\))?/,
      '',
    );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return seen;
}

const write = (ctx: ToolContext, id: string, text: string) => terminalWriteTool.execute({ id, text }, ctx);

function listedTerminals(): Array<{ device: number; inode?: number; ownerPid: number }> {
  const directory = allocatedTerminalsDirectory();
  let names: string[] = [];
  try {
    names = readdirSync(directory);
  } catch {}
  return names
    .filter((name) => name.startsWith(`${process.pid}-`))
    .map((name) => JSON.parse(readFileSync(path.join(directory, name), 'utf8')));
}

const itWithScript = itWithSystemTools(['script', 'python3']);

describeWithSystemTools(['script'])('terminal_start with pty: true', () => {
  itWithScript(
    'gives the command a terminal that tty names, at the size asked, and a REPL to drive',
    async () => {
      const ctx = await contextFor('off');
      const id = await startPty(ctx, 'tty; stty size; exec python3 -q', { cols: 91, rows: 33 });
      const first = await readUntil(ctx, id, />>> /);
      expect(first).toMatch(/\/dev\/pts\/\d+/);
      expect(first).not.toContain('not a tty');
      expect(first).toContain('33 91');
      await write(ctx, id, 'print(6 * 7)\n');
      expect(await readUntil(ctx, id, /42\r?\n/)).toMatch(/42\r?\n/);
      // Ctrl-C reaches the REPL as SIGINT through the terminal, and it keeps running.
      await write(ctx, id, 'import time; time.sleep(30)\n');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await write(ctx, id, '\u0003');
      expect(await readUntil(ctx, id, /KeyboardInterrupt/)).toContain('KeyboardInterrupt');
      await write(ctx, id, 'exit()\n');
      const done = await terminalReadTool.execute({ id, wait_ms: 10_000 }, ctx);
      expect(done.structured).toMatchObject({ running: false, exitCode: 0, pty: true });
    },
  );

  itWithSystemTools(['script'])(
    'answers a read -p prompt, resizes the terminal and forgets it when it ends',
    async () => {
      const ctx = await contextFor('off');
      const id = await startPty(
        ctx,
        'trap \'echo "resized to $(stty size)"\' WINCH; read -p "name? " name; echo "hello $name"; stat -L -c "dev %d ino %i" /dev/stdin; until read -t 0; do sleep 0.1; done; read -r _; echo "final $(stty size)"',
      );
      expect(await readUntil(ctx, id, /name\? /)).toContain('name? ');
      await write(ctx, id, 'quiver\n');
      const answered = await readUntil(ctx, id, /ino \d+/);
      expect(answered).toContain('hello quiver');
      const [, device, inode] = /dev (\d+) ino (\d+)/.exec(answered) ?? [];
      // Listed as Quiver's own while the command runs, so Quiver's person-only commands refuse on it.
      expect(listedTerminals()).toContainEqual(
        expect.objectContaining({ device: Number(device), inode: Number(inode) }),
      );
      // The script waits for the line without `read -t`: a timeout firing as the line arrives
      // would drop it (bash's read), which a loaded machine made happen.
      const resized = await terminalWriteTool.execute({ id, text: '', cols: 100, rows: 20 }, ctx);
      expect(resized).toMatchObject({ ok: true });
      // The program is told (SIGWINCH) and sees the new size.
      expect(await readUntil(ctx, id, /resized to \d+ 100/)).toMatch(/resized to \d+ 100/);
      await write(ctx, id, '\n');
      expect(await readUntil(ctx, id, /final \d+ \d+/)).toContain('final 20 100');
      await terminalReadTool.execute({ id, wait_ms: 10_000 }, ctx);
      expect(listedTerminals()).not.toContainEqual(expect.objectContaining({ device: Number(device) }));
    },
  );

  itWithSystemTools(['script'])('keeps secrets out of the environment and the git settings in', async () => {
    const ctx = await contextFor('off', { ...process.env, GITHUB_TOKEN: 'ghp_pty_secret_value' });
    const id = await startPty(ctx, 'env; echo END-OF-ENV');
    const output = await readUntil(ctx, id, /END-OF-ENV\r?\n/);
    expect(output).toContain('GIT_CONFIG_KEY_0=safe.bareRepository');
    expect(output).toContain('core.hooksPath');
    expect(output).not.toContain('ghp_pty_secret_value');
    expect(output).not.toContain('QUIVER_PTY');
  });

  itWithSystemTools(['script', 'bwrap'])(
    'runs inside the sandbox: the workspace is writable, the home is hidden, and every terminal in it is listed',
    async () => {
      const ctx = await contextFor('required');
      const id = await startPty(
        ctx,
        `tty; echo made > inside.txt; ls ${JSON.stringify(process.env.HOME ?? '/root')} | wc -l; stat -L -c "dev %d" /dev/stdin; read -r _`,
      );
      const output = await readUntil(ctx, id, /dev \d+/);
      expect(output).toMatch(/\/dev\/pts\/\d+/);
      expect(readFileSync(path.join(workspace.root, 'inside.txt'), 'utf8')).toBe('made\n');
      expect(output).toMatch(/\r?\n0\r?\n/);
      const [, device] = /dev (\d+)/.exec(output) ?? [];
      const entry = listedTerminals().find((listed) => listed.device === Number(device));
      expect(entry).toBeDefined();
      expect(entry?.inode).toBeUndefined();
      await terminalStopTool.execute({ id }, ctx);
      expect(listedTerminals().some((listed) => listed.device === Number(device))).toBe(false);
    },
  );

  itWithSystemTools(['script'])(
    'keeps a long pty output within the output window and spills the rest, and ends input with end_input',
    async () => {
      const ctx = await contextFor('off');
      const id = await startPty(ctx, 'head -c 300000 /dev/zero | tr "\\0" x; echo; cat; echo INPUT-ENDED');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await terminalWriteTool.execute({ id, text: 'last line\n', end_input: true }, ctx);
      const done = await terminalReadTool.execute({ id, wait_ms: 10_000 }, ctx);
      expect(done.structured).toMatchObject({ running: false, exitCode: 0, truncated: true });
      expect(textOf(done).length).toBeLessThan(100_000);
      expect(textOf(done)).toContain('INPUT-ENDED');
      const spill = (done.structured as { spillFile?: string }).spillFile;
      expect(spill && readFileSync(spill, 'utf8')).toContain('x'.repeat(1000));
    },
  );

  itWithSystemTools(['script'])(
    'refuses a size without pty and a resize of a pipe shell, saying how to fix it',
    async () => {
      const ctx = await contextFor('off');
      expect(await terminalStartTool.execute({ command: 'true', cols: 80 }, ctx)).toMatchObject({
        ok: false,
        code: 'input_invalid',
        error: expect.stringContaining('add pty: true'),
      });
      const started = await terminalStartTool.execute({ command: 'sleep 30' }, ctx);
      const id = (started.structured as { id: string }).id;
      expect(await terminalWriteTool.execute({ id, text: '', cols: 80, rows: 24 }, ctx)).toMatchObject({
        ok: false,
        code: 'input_invalid',
        error: expect.stringContaining('start it with pty: true'),
      });
    },
  );
});
