import { defineTool, fail, ok, type ToolResult } from '@quiver/types';
import { z } from 'zod';
import { DEFAULT_TERMINAL_SIZE, ptyAvailable, SCRIPT_PATH } from '../pty.js';
import { RunningCommand } from '../running-command.js';
import { prepareLaunch } from '../terminal-tool.js';
import { BackgroundShell, backgroundShellsOf, MAX_SHELLS_PER_SESSION } from './background-shells.js';

const MAX_WAIT_MS = 60_000;

function status(shell: BackgroundShell): string {
  const seconds = ((Date.now() - shell.startedAt) / 1000).toFixed(1);
  const exit = shell.exit;
  if (!exit) return `running · pid ${shell.process.pid} · ${seconds} s`;
  return exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
}

function describeShell(shell: BackgroundShell) {
  return {
    id: shell.id,
    command: shell.command,
    cwd: shell.cwd,
    running: shell.exit === undefined,
    exitCode: shell.exit?.exitCode ?? null,
    signal: shell.exit?.signal ?? null,
    sandboxed: shell.sandboxed,
    pty: shell.pty,
  };
}

/** The status line and the output nobody has read yet. */
function unreadResult(shell: BackgroundShell): ToolResult {
  const unread = shell.takeUnread();
  const cut = unread.truncated
    ? ` · middle cut${unread.spillFile ? `; ${unread.spillCapped ? 'the beginning of the output (up to the spill limit)' : 'full output'} in ${unread.spillFile}` : ''}`
    : '';
  const body = unread.text.length > 0 ? unread.text : '(no new output)';
  const structured: Record<string, unknown> = {
    ...describeShell(shell),
    outputBytes: unread.totalBytes,
    truncated: unread.truncated,
  };
  if (unread.spillFile) structured.spillFile = unread.spillFile;
  return ok(`[${shell.id} · ${status(shell)}${cut}]\n${body}`, { structured });
}

function unknownShell(id: string, known: string[]): ToolResult {
  return fail(
    'not_found',
    `No background shell ${id} in this session${known.length > 0 ? ` (running: ${known.join(', ')})` : ''}.`,
  );
}

export const terminalStartTool = defineTool({
  name: 'terminal_start',
  title: 'Start background command',
  description:
    'Starts a long-running bash command (a server, a watcher) in the background and returns its id at once. ' +
    'Read its output with terminal_read, send input with terminal_write, stop it with terminal_stop. ' +
    'With pty: true it runs on a pseudo-terminal, for programs that need one (REPLs, prompts, full-screen tools).',
  input: z.object({
    command: z.string().min(1).describe('A bash command line.'),
    cwd: z.string().optional().describe('Working directory, relative to the first workspace root.'),
    pty: z
      .boolean()
      .optional()
      .describe(
        'Run on a pseudo-terminal: the program sees a terminal (tty, line editing, Ctrl-C as "\\u0003" through terminal_write); its output includes the echo of what you write.',
      ),
    cols: z
      .number()
      .int()
      .min(10)
      .max(1000)
      .optional()
      .describe(`Terminal width with pty (default ${DEFAULT_TERMINAL_SIZE.cols}).`),
    rows: z
      .number()
      .int()
      .min(2)
      .max(1000)
      .optional()
      .describe(`Terminal height with pty (default ${DEFAULT_TERMINAL_SIZE.rows}).`),
  }),
  capabilities: { process: true, secrets: true },
  permission: { kind: 'shell', command: (args) => args.command, cwd: (args) => args.cwd },
  annotations: { openWorld: true, destructive: true },
  async execute(args, ctx) {
    if (!args.pty && (args.cols !== undefined || args.rows !== undefined))
      return fail(
        'input_invalid',
        'cols and rows set the size of a pseudo-terminal: add pty: true, or leave them out.',
      );
    if (args.pty && !ptyAvailable())
      return fail(
        'not_available',
        `pty: true needs util-linux script at ${SCRIPT_PATH}, which is not installed — apt-get install bsdutils, or start the command without pty.`,
      );
    const launch = await prepareLaunch(ctx, args.cwd);
    if ('ok' in launch) return launch;
    const shells = backgroundShellsOf(ctx.session);
    if (shells.size >= MAX_SHELLS_PER_SESSION) {
      return fail(
        'limit_exceeded',
        `This session already has ${MAX_SHELLS_PER_SESSION} background shells; stop one with terminal_stop first.`,
      );
    }
    const shell = new BackgroundShell(
      shells.nextId(),
      args.command,
      launch.cwd,
      launch.sandboxed,
      launch.spillDir,
      launch.spillLimitBytes,
      args.pty === true,
    );
    const running = await RunningCommand.start({
      command: args.command,
      cwd: launch.cwd,
      roots: launch.roots,
      env: launch.env,
      sandboxed: launch.sandboxed,
      unixSockets: launch.unixSockets,
      readOnlyPaths: launch.readOnlyPaths,
      hiddenPaths: launch.hiddenPaths,
      stdin: 'pipe',
      ...(args.pty
        ? {
            pty: {
              cols: args.cols ?? DEFAULT_TERMINAL_SIZE.cols,
              rows: args.rows ?? DEFAULT_TERMINAL_SIZE.rows,
            },
          }
        : {}),
      onOutput: (chunk) => shell.receive(chunk),
    });
    shell.attach(running);
    shells.add(shell);
    return ok(
      `Started ${shell.id} (pid ${running.pid}${args.pty ? ', on a pseudo-terminal' : ''}): ${args.command}`,
      {
        structured: describeShell(shell),
      },
    );
  },
});

export const terminalReadTool = defineTool({
  name: 'terminal_read',
  title: 'Read background command output',
  description:
    'Returns the output of a background shell since the last read (beginning and end when it is long) and whether it is still running.',
  input: z.object({
    id: z.string().describe('The id terminal_start returned.'),
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MS)
      .optional()
      .describe('Wait up to this long for the command to exit first.'),
  }),
  capabilities: {},
  annotations: { readOnly: true },
  async execute(args, ctx) {
    const shells = backgroundShellsOf(ctx.session);
    const shell = shells.get(args.id);
    if (!shell)
      return unknownShell(
        args.id,
        shells.list().map((known) => known.id),
      );
    if (args.wait_ms && !shell.exit) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      await Promise.race([
        shell.process.exited,
        new Promise((resolve) => {
          timer = setTimeout(resolve, args.wait_ms);
          onAbort = () => resolve(undefined);
          ctx.signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
      clearTimeout(timer);
      if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
    }
    return unreadResult(shell);
  },
});

export const terminalWriteTool = defineTool({
  name: 'terminal_write',
  title: 'Write to background command',
  description:
    'Sends text to the standard input of a background shell (add "\\n" to press Enter); end_input closes its input. ' +
    'On a pseudo-terminal, cols and rows resize it (the program gets SIGWINCH).',
  input: z.object({
    id: z.string(),
    text: z.string(),
    end_input: z.boolean().optional().describe('Close standard input after writing (sends end-of-file).'),
    cols: z.number().int().min(10).max(1000).optional().describe('New terminal width (pty shells only).'),
    rows: z.number().int().min(2).max(1000).optional().describe('New terminal height (pty shells only).'),
  }),
  capabilities: {},
  // What it writes may be read as a command line by the program behind it (a shell, a REPL): it is
  // decided as a shell command, in the same rule space as terminal.
  permission: { kind: 'shell', command: (args) => args.text },
  annotations: { destructive: true },
  async execute(args, ctx) {
    const shells = backgroundShellsOf(ctx.session);
    const shell = shells.get(args.id);
    if (!shell)
      return unknownShell(
        args.id,
        shells.list().map((known) => known.id),
      );
    const resizing = args.cols !== undefined || args.rows !== undefined;
    if (resizing && (args.cols === undefined || args.rows === undefined))
      return fail('input_invalid', 'A resize needs both cols and rows.');
    if (resizing && !shell.pty)
      return fail(
        'input_invalid',
        `${shell.id} runs without a pseudo-terminal, so it has no size: start it with pty: true to resize it.`,
      );
    if (shell.exit)
      return fail('conflict', `${shell.id} has exited (${status(shell)}); its input is closed.`);
    if (resizing && !(await shell.process.resize({ cols: args.cols as number, rows: args.rows as number })))
      return fail('conflict', `${shell.id}'s terminal could not be resized (${status(shell)}).`);
    if (args.text.length > 0 && !shell.process.write(args.text))
      return fail('conflict', `${shell.id} has exited (${status(shell)}); its input is closed.`);
    if (args.end_input) shell.process.endInput();
    const resized = resizing ? `; resized to ${args.cols}x${args.rows}` : '';
    return ok(
      `Wrote ${Buffer.byteLength(args.text)} bytes to ${shell.id}${args.end_input ? ' and closed its input' : ''}${resized}.`,
    );
  },
});

export const terminalStopTool = defineTool({
  name: 'terminal_stop',
  title: 'Stop background command',
  description: 'Stops a background shell, killing its whole process tree, and returns its unread output.',
  input: z.object({ id: z.string() }),
  capabilities: {},
  permission: { kind: 'custom', specifier: (args) => args.id },
  annotations: { destructive: true, idempotent: true },
  async execute(args, ctx) {
    const shells = backgroundShellsOf(ctx.session);
    const shell = shells.get(args.id);
    if (!shell)
      return unknownShell(
        args.id,
        shells.list().map((known) => known.id),
      );
    await shell.process.stop();
    shells.remove(shell.id);
    return unreadResult(shell);
  },
});

export const terminalListTool = defineTool({
  name: 'terminal_list',
  title: 'List background commands',
  description: 'Lists the background shells of this session with their status.',
  input: z.object({}),
  capabilities: {},
  annotations: { readOnly: true },
  execute(_args, ctx) {
    const shells = backgroundShellsOf(ctx.session).list();
    if (shells.length === 0) return ok('No background shells.', { structured: { shells: [] } });
    const lines = shells.map((shell) => `${shell.id} · ${status(shell)} · ${shell.command}`);
    return ok(lines.join('\n'), { structured: { shells: shells.map(describeShell) } });
  },
});
