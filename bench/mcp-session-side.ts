import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createQuiver } from '@quiver/wiring';

/**
 * One `echo` call the way an agent builder makes it: a `createQuiver` session (the whole call
 * pipeline, its event log included) calling a stdio server through the bridge.
 */
export async function sessionEchoCall(
  command: string,
  args: readonly string[],
): Promise<{ call: () => Promise<void>; close: () => Promise<void> }> {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'quiver-bench-mcp-'));
  // Pins live outside the workspace (a repository could ship its own).
  const dataHome = mkdtempSync(path.join(os.tmpdir(), 'quiver-bench-xdg-'));
  writeFileSync(
    path.join(workspace, 'quiver.yaml'),
    `defaultPersonality: bench\nmcpServers:\n  everything: ${JSON.stringify({ command, args })}\n`,
  );
  mkdirSync(path.join(workspace, 'personalities'));
  writeFileSync(
    path.join(workspace, 'personalities/bench.yaml'),
    'id: bench\nplugins: [mcp-bridge]\nmcpServers:\n  everything: { includeTools: [echo] }\npermissions:\n  allow: [mcp__everything__echo]\n',
  );
  const quiver = await createQuiver({
    workspace,
    trustProject: true,
    env: { ...process.env, XDG_DATA_HOME: dataHome },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  const session = quiver.createSession();
  await session.ready();
  const calls = [{ name: 'mcp__everything__echo', args: { message: 'bench' } }];
  return {
    call: async () => {
      const [result] = await session.execute(calls);
      if (!result?.ok) throw new Error(result?.error ?? 'no result');
    },
    close: async () => {
      await session.close();
      await quiver.close();
      rmSync(workspace, { recursive: true, force: true });
      rmSync(dataHome, { recursive: true, force: true });
    },
  };
}
