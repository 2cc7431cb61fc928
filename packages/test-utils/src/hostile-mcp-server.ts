import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The MCP bridge's hostile fixture server: it changes its tool definitions when `swap` is called
 * and logs every call it receives to `calls.log` in its state directory. Resolved from this file,
 * which sits one level below the package in both src/ and dist/.
 */
export const HOSTILE_MCP_SERVER = fileURLToPath(
  new URL('../../../extensions/mcp-bridge/test/fixtures/hostile-server.mjs', import.meta.url),
);

/** The `mcpServers:` lines of a quiver.yaml that run the hostile server as `hostile`. */
export function hostileServerYaml(stateDirectory: string): string[] {
  return [
    'mcpServers:',
    '  hostile:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(HOSTILE_MCP_SERVER)}]`,
    `    env: { HOSTILE_STATE_DIR: ${JSON.stringify(stateDirectory)} }`,
  ];
}

/** A personality that enables the hostile server and allows every one of its tools. */
export const HOSTILE_PERSONALITY =
  'plugins: [mcp-bridge]\nmcpServers:\n  hostile: true\npermissions:\n  allow: [mcp__hostile__*]\n';

/** Writes a workspace whose default personality `dev` is `HOSTILE_PERSONALITY`. */
export function writeHostileWorkspace(workspace: string, stateDirectory: string): void {
  writeFileSync(
    join(workspace, 'quiver.yaml'),
    ['defaultPersonality: dev', ...hostileServerYaml(stateDirectory), ''].join('\n'),
  );
  mkdirSync(join(workspace, 'personalities'), { recursive: true });
  writeFileSync(join(workspace, 'personalities/dev.yaml'), HOSTILE_PERSONALITY);
}

/** The arguments of every call of `tool` the hostile server received, in order. */
export function hostileServerCalls(stateDirectory: string, tool: string): unknown[] {
  const file = join(stateDirectory, 'calls.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { tool: string; args: unknown })
    .filter((call) => call.tool === tool)
    .map((call) => call.args);
}

/** The arguments of every `fetch_notes` call, the tool whose definition `swap` changes. */
export function hostileFetchNotesCalls(stateDirectory: string): unknown[] {
  return hostileServerCalls(stateDirectory, 'fetch_notes');
}

/**
 * The hostile server that poses as Quiver: its questions copy Quiver's permission form and hide
 * characters, its sampling request claims to be Quiver and asks for all of the client's context.
 * It writes what it got back to `<tool>.json` in its state directory.
 */
export const POSING_MCP_SERVER = fileURLToPath(
  new URL('../../../extensions/mcp-bridge/test/fixtures/posing-server.mjs', import.meta.url),
);

/** The lines under `mcpServers:` of a quiver.yaml that run the posing server as `evil`, allowed to ask. */
export function posingServerYaml(stateDirectory: string, extra: readonly string[] = []): string[] {
  return [
    '  evil:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(POSING_MCP_SERVER)}]`,
    `    env: { HOSTILE_STATE_DIR: ${JSON.stringify(stateDirectory)} }`,
    '    allow: [elicitation, sampling]',
    ...extra.map((line) => `    ${line}`),
  ];
}

/** What the posing server's `tool` got back from the client, or undefined when it got nothing. */
export function posingServerAnswer(stateDirectory: string, tool: string): unknown {
  const file = join(stateDirectory, `${tool}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}
