import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingServerYaml, quiver, tempDirs, write } from './helpers.js';
import { connectStdio, textOf, untilListed } from './serve-fixtures.js';

const dirs = tempDirs('quiver-serve-lean-cancel-');
afterEach(dirs.cleanup);

function workspace(): string {
  const dir = dirs.make();
  write(path.join(dir, 'quiver.yaml'), `defaultPersonality: gate\nmcpServers:\n${everythingServerYaml()}\n`);
  write(
    path.join(dir, 'personalities/gate.yaml'),
    'id: gate\nplugins: [mcp-bridge]\nmcpServers:\n  everything: {}\npermissions:\n  allow: [mcp__everything__*]\n',
  );
  return dir;
}

interface LoggedCall {
  callId: string;
  toolName: string;
  status: string;
  code?: string;
}

async function loggedCalls(dir: string): Promise<LoggedCall[]> {
  const listed = await quiver(['--trust-project', 'log', '--json'], { cwd: dir });
  expect(listed.code, listed.stderr).toBe(0);
  const [session] = (JSON.parse(listed.stdout) as { sessions: Array<{ id: string }> }).sessions;
  const shown = await quiver(['--trust-project', 'log', '--session', String(session?.id), '--json'], {
    cwd: dir,
  });
  expect(shown.code, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { calls: LoggedCall[] }).calls;
}

describe('quiver serve cancelling a plain call to a bridged server', () => {
  it('stops the session’s call mid-call (logged as aborted) and answers the next call', async () => {
    const dir = workspace();
    const { client, stderr } = await connectStdio(dir);
    try {
      await untilListed(client, 'mcp__everything__trigger-long-running-operation', { stderr });
      const controller = new AbortController();
      // No progress token: a plain call, which serve's lean path takes.
      const running = client.callTool(
        { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 10, steps: 10 } },
        { signal: controller.signal },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      controller.abort('changed my mind');
      await expect(running).rejects.toThrow();
      // The session's call was aborted while the connection is open, well before the operation's
      // 10 s: it is logged as aborted, not as running.
      const started = Date.now();
      let calls = await loggedCalls(dir);
      while (calls[0]?.status === 'running' && Date.now() - started < 4_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        calls = await loggedCalls(dir);
      }
      expect(calls.map((call) => [call.toolName, call.status, call.code])).toEqual([
        ['mcp__everything__trigger-long-running-operation', 'error', 'aborted'],
      ]);
      const echoed = await client.callTool({ name: 'mcp__everything__echo', arguments: { message: 'next' } });
      expect(textOf(echoed)).toBe('Echo: next');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('cancels only the request the client cancelled: another call in flight finishes', async () => {
    const dir = workspace();
    const { client, stderr } = await connectStdio(dir);
    try {
      await untilListed(client, 'mcp__everything__trigger-long-running-operation', { stderr });
      const controller = new AbortController();
      const cancelled = client.callTool(
        { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 3, steps: 3 } },
        { signal: controller.signal },
      );
      const other = client.callTool({
        name: 'mcp__everything__trigger-long-running-operation',
        arguments: { duration: 3, steps: 3 },
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      controller.abort('only this one');
      await expect(cancelled).rejects.toThrow();
      const finished = await other;
      expect(finished.isError ?? false, textOf(finished)).toBe(false);
      expect(textOf(finished)).toContain('completed');
    } finally {
      await client.close();
    }
  }, 120_000);
});
