import { defineTool, fail, type ToolContext, type ToolResult } from '@quiver/types';
import { z } from 'zod';
import { commandEnvironment } from './child-environment.js';
import { emptyHooksDirectory, gitSafetyEnvironment } from './git-safety.js';
import { OutputWindow } from './output-window.js';
import { PartialEmitter } from './partial-emitter.js';
import { RunningCommand } from './running-command.js';
import { decideSandbox } from './sandbox.js';
import { type TerminalRunData, terminalResult } from './terminal-result.js';
import { resolveWorkspaceCwd } from './workspace-cwd.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;

const terminalInput = z.object({
  command: z.string().min(1).describe('A bash command line; pipes, redirects and && work.'),
  cwd: z
    .string()
    .optional()
    .describe('Working directory, relative to the first workspace root; must stay inside the workspace.'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Kill the command after this many ms (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`,
    ),
});

function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TimeoutError';
}

export interface PreparedLaunch {
  cwd: string;
  roots: readonly string[];
  env: Record<string, string>;
  sandboxed: boolean;
  unixSockets: readonly string[];
  readOnlyPaths: readonly string[];
  hiddenPaths: readonly string[];
  spillDir: string;
  spillLimitBytes: number | undefined;
}

/** Checks the capability, the working directory and the sandbox before anything runs. */
export async function prepareLaunch(
  ctx: ToolContext,
  requestedCwd: string | undefined,
): Promise<PreparedLaunch | ToolResult> {
  const handle = ctx.capabilities.process;
  if (!handle) return fail('not_available', 'The process capability is not available to this tool.');
  const cwd = await resolveWorkspaceCwd(handle.roots, requestedCwd);
  if (!cwd.ok) return cwd;
  const sandbox = await decideSandbox(handle.sandbox);
  if ('error' in sandbox) return fail('not_available', sandbox.error);
  return {
    cwd: cwd.cwd,
    roots: handle.roots,
    env: gitSafetyEnvironment(
      commandEnvironment(handle.baseEnv, ctx.capabilities.secrets?.granted),
      await emptyHooksDirectory(handle.spillDir),
    ),
    sandboxed: sandbox.sandboxed,
    unixSockets: handle.unixSockets ?? [],
    readOnlyPaths: handle.readOnlyPaths ?? [],
    hiddenPaths: handle.hiddenPaths ?? [],
    spillDir: handle.spillDir,
    spillLimitBytes: handle.spillLimitBytes,
  };
}

export async function runTerminalCommand(
  args: z.infer<typeof terminalInput>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const launch = await prepareLaunch(ctx, args.cwd);
  if ('ok' in launch) return launch;
  if (ctx.signal.aborted) return fail('aborted', 'The call was aborted before the command started.');
  const timeoutMs = Math.min(args.timeout_ms ?? ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const window = new OutputWindow({ spillDir: launch.spillDir, spillLimitBytes: launch.spillLimitBytes });
  const partials = new PartialEmitter((emission) => ctx.emit(emission));
  const running = await RunningCommand.start({
    command: args.command,
    cwd: launch.cwd,
    roots: launch.roots,
    env: launch.env,
    sandboxed: launch.sandboxed,
    unixSockets: launch.unixSockets,
    readOnlyPaths: launch.readOnlyPaths,
    hiddenPaths: launch.hiddenPaths,
    stdin: 'ignore',
    onOutput(chunk) {
      window.write(chunk);
      partials.push(chunk);
    },
  });
  let stopReason: 'timeout' | 'aborted' | undefined;
  const timer = setTimeout(() => {
    stopReason ??= 'timeout';
    void running.stop();
  }, timeoutMs);
  const onAbort = () => {
    stopReason ??= isTimeoutReason(ctx.signal.reason) ? 'timeout' : 'aborted';
    void running.stop();
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const exit = await running.exited;
  clearTimeout(timer);
  ctx.signal.removeEventListener('abort', onAbort);
  partials.flush();
  window.close();
  if (exit.spawnError !== undefined)
    return fail('execution_failed', `The command could not be started: ${exit.spawnError}`);
  const windowed = window.result();
  const data: TerminalRunData = {
    command: args.command,
    cwd: launch.cwd,
    exitCode: exit.exitCode,
    signal: exit.signal,
    durationMs: exit.durationMs,
    truncated: windowed.truncated,
    outputBytes: windowed.totalBytes,
    sandboxed: launch.sandboxed,
  };
  if (windowed.spillFile) data.spillFile = windowed.spillFile;
  if (windowed.spillCapped) data.spillCapped = true;
  if (stopReason === 'timeout') data.timedOut = true;
  if (stopReason === 'aborted') data.aborted = true;
  return terminalResult(data, windowed.text);
}

export const terminalTool = defineTool({
  name: 'terminal',
  title: 'Terminal',
  description:
    'Runs a bash command in the workspace and returns its exit code and output (stdout and stderr interleaved). ' +
    'Long output keeps its beginning and end; the full output is saved to a file named in the result. ' +
    'The whole process tree is killed on timeout or abort. For servers and watchers, use terminal_start. ' +
    'When commands run sandboxed, /tmp and $TMPDIR are empty for each call and deleted after it: keep files that a later command needs in the workspace.',
  input: terminalInput,
  capabilities: { process: true, secrets: true },
  permission: { kind: 'shell', command: (args) => args.command, cwd: (args) => args.cwd },
  annotations: { openWorld: true, destructive: true },
  timeouts: { defaultMs: DEFAULT_TIMEOUT_MS, maxMs: MAX_TIMEOUT_MS },
  execute: runTerminalCommand,
});
