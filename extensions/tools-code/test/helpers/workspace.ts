import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SessionState, Tool, ToolContext, ToolResult } from '@quiver/types';

/** A real in-memory SessionState, as the runtime gives each session. */
export function createSessionState(): SessionState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    set: (key, value) => {
      values.set(key, value);
    },
    delete: (key) => {
      values.delete(key);
    },
  };
}

export interface TestWorkspace {
  /** Real path of the workspace root. */
  root: string;
  session: SessionState;
  at(relative: string): string;
  write(relative: string, content: string | Buffer): Promise<string>;
  read(relative: string): Promise<Buffer>;
  text(relative: string): Promise<string>;
  context(mode?: 'read' | 'write', session?: SessionState): ToolContext;
  /** Validates args with the tool's schema (defaults applied) and runs it, as the runtime does. */
  run<T extends Tool>(tool: T, args: unknown, ctx?: ToolContext): Promise<ToolResult>;
  cleanup(): Promise<void>;
}

export async function createWorkspace(prefix = 'quiver-code-'): Promise<TestWorkspace> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const session = createSessionState();
  const workspace: TestWorkspace = {
    root,
    session,
    at: (relative) => path.join(root, relative),
    async write(relative, content) {
      const target = path.join(root, relative);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
      return target;
    },
    read: (relative) => readFile(path.join(root, relative)),
    text: (relative) => readFile(path.join(root, relative), 'utf8'),
    context(mode = 'write', sessionState = session) {
      return {
        callId: 'call-1',
        sessionId: 'session-1',
        personalityId: 'default',
        agent: { kind: 'main', id: 'agent-1' },
        turn: 1,
        signal: new AbortController().signal,
        emit: () => undefined,
        budget: 80_000,
        dryRun: false,
        capabilities: { fs_reach: { roots: [root], mode } },
        attachments: [],
        session: sessionState,
      };
    },
    async run(tool, args, ctx) {
      const parsed = tool.input.safeParse(args);
      if (!parsed.success) return { ok: false, code: 'input_invalid', error: parsed.error.message };
      return tool.execute(parsed.data, ctx ?? workspace.context());
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  return workspace;
}

export function expectOk(result: ToolResult): asserts result is Extract<ToolResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected success, got [${result.code}] ${result.error}`);
}

export function expectFailure(result: ToolResult): asserts result is Extract<ToolResult, { ok: false }> {
  if (result.ok) throw new Error(`expected a failure, got success: ${result.value}`);
}
