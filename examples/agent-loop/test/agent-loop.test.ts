import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createQuiver } from '@quiver/wiring';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentLoop } from '../src/agent-loop.js';
import { DEMO_TASK, main, prepareDemoWorkspace } from '../src/main.js';
import { terminalPermissionResolver } from '../src/permission-prompts.js';
import { ScriptedModelStandIn } from '../src/scripted-model-stand-in.js';

const packageRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const workspaces: string[] = [];

async function demoWorkspace(prepare = true): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), 'quiver-agent-loop-test-'));
  workspaces.push(workspace);
  if (prepare) await prepareDemoWorkspace(workspace);
  return workspace;
}

async function runDemo(workspace: string): Promise<string[]> {
  const lines: string[] = [];
  await main({ argv: ['--workspace', workspace], print: (line) => lines.push(line), interactive: false });
  return lines;
}

function indexOfLine(lines: readonly string[], fragment: string): number {
  const index = lines.findIndex((line) => line.includes(fragment));
  expect(index, `no line contains "${fragment}":\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
  return index;
}

afterEach(async () => {
  for (const workspace of workspaces.splice(0)) await rm(workspace, { recursive: true, force: true });
});

describe('the agent loop example', () => {
  it('ticks off the TODO in the notes through read_file and edit_file', async () => {
    const workspace = await demoWorkspace();
    await runDemo(workspace);
    const notes = await readFile(path.join(workspace, 'NOTES.md'), 'utf8');
    expect(notes).toContain('- DONE: write the release notes');
    expect(notes).not.toContain('TODO');
    expect(notes).toContain('- Ship 0.2 after the notes are written');
  });

  it('asks before the shell command, and does not run it when the answer is no', async () => {
    const workspace = await demoWorkspace();
    const lines = await runDemo(workspace);
    await expect(access(path.join(workspace, 'build', 'bundle.js'))).resolves.toBeUndefined();
    const requested = indexOfLine(lines, '[event] tool.user_requested terminal');
    const asked = indexOfLine(lines, '[event] permission.requested terminal');
    const prompt = indexOfLine(lines, '? Allow terminal: rm -rf build?');
    const denied = indexOfLine(lines, '[event] permission.completed terminal: deny');
    const completed = indexOfLine(lines, '[event] tool.execution_complete terminal failed (not_permitted)');
    expect([requested, asked, prompt, denied, completed]).toEqual(
      [...[requested, asked, prompt, denied, completed]].sort((a, b) => a - b),
    );
    expect(lines.some((line) => line.includes('tool.execution_start terminal'))).toBe(false);
  });

  it("prints each call's lifecycle events in order, between the model turns", async () => {
    const workspace = await demoWorkspace();
    const lines = await runDemo(workspace);
    const order = [
      'model: Let me see what is in the workspace.',
      '[event] tool.execution_start list_dir',
      '[event] tool.execution_complete list_dir ok',
      'model: There is NOTES.md; I will read it.',
      '[event] tool.execution_complete read_file ok',
      '[event] tool.execution_start edit_file',
      '[event] tool.execution_complete edit_file ok',
      'model: The build directory is stale',
      'model: I was not allowed to delete it; I will file a ticket instead.',
      '[event] tool.execution_complete kanban_create ok',
      'model: Done.',
      'finished after 6 model calls',
    ].map((fragment) => indexOfLine(lines, fragment));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('leaves a ticket on the kanban board that another session can read', async () => {
    const workspace = await demoWorkspace();
    await runDemo(workspace);
    const quiver = await createQuiver({ workspace });
    const session = quiver.createSession();
    try {
      const [listing] = await session.execute([{ name: 'kanban_list', args: {} }]);
      expect(listing?.ok).toBe(true);
      expect(listing?.ok && listing.value).toContain('Clean the stale build directory');
    } finally {
      await session.close();
      await quiver.close();
    }
  });

  it('stops after looking around when the workspace has no notes to work on', async () => {
    const workspace = await demoWorkspace(false);
    const lines = await runDemo(workspace);
    expect(
      lines.filter((line) => line.includes('[event] tool.execution_start')).map((line) => line.trim()),
    ).toEqual(['[event] tool.execution_start list_dir']);
    indexOfLine(lines, 'model: I stopped: the previous result did not give me what I needed.');
  });

  it('runs the command when the user answers y at the terminal prompt', async () => {
    const workspace = await demoWorkspace();
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = '';
    output.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (screen.endsWith('[y] once, [s] this session, [N] deny: ')) input.write('y\n');
    });
    const quiver = await createQuiver({ workspace });
    const session = quiver.createSession({ permissionResolver: terminalPermissionResolver(input, output) });
    const lines: string[] = [];
    try {
      await runAgentLoop({
        session,
        model: new ScriptedModelStandIn(),
        task: DEMO_TASK,
        print: (line) => lines.push(line),
      });
    } finally {
      await session.close();
      await quiver.close();
    }
    expect(screen).toContain('? Allow terminal: rm -rf build?');
    await expect(access(path.join(workspace, 'build'))).rejects.toThrow();
    indexOfLine(lines, '[event] permission.completed terminal: allow (once)');
    indexOfLine(lines, 'model: Deleted; I will record it.');
  });

  it('shows a bidi-hidden command escaped at the terminal prompt, naming the rm that would run', async () => {
    const workspace = await demoWorkspace();
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = '';
    output.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (screen.endsWith('[y] once, [s] this session, [N] deny: ')) input.write('n\n');
    });
    const quiver = await createQuiver({ workspace });
    const session = quiver.createSession({ permissionResolver: terminalPermissionResolver(input, output) });
    try {
      const [result] = await session.execute([
        { id: 'c1', name: 'terminal', args: { command: 'echo ok \u202e; rm -rf build #\u2066' } },
      ]);
      expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    } finally {
      await session.close();
      await quiver.close();
    }
    expect(screen).toContain('? Allow terminal: echo ok \\u202e; rm -rf build #\\u2066?');
    expect(screen).toMatch(/^ {2}- rm -rf build: /m);
    expect(screen).not.toMatch(/[\u202e\u2066]/);
    await expect(access(path.join(workspace, 'build'))).resolves.toBeUndefined();
  });

  it('runs as `pnpm start` from the built dist on a fresh temp workspace', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(packageRoot, 'dist', 'main.js')],
      {
        cwd: packageRoot,
        timeout: 60_000,
      },
    );
    const workspace = stdout.match(/^workspace: (.+)$/m)?.[1];
    expect(workspace).toBeDefined();
    if (workspace) workspaces.push(workspace);
    expect(stdout).toContain('- DONE: write the release notes');
    expect(stdout).toContain('[scripted answer]');
  });
});
