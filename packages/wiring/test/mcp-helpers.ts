import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bridge's fixture MCP server: it appends its pid to `starts.log` in its state directory. */
export const FIXTURE_SERVER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../extensions/mcp-bridge/test/fixtures/fixture-server.mjs',
);

export interface McpWorkspace {
  workspace: string;
  /** The state directory of each server. */
  state: Record<string, string>;
  /** How many times the server's process was started. */
  starts(server: string): number;
  remove(): void;
}

/**
 * A workspace whose quiver.yaml configures the fixture server under each name (with extra keys),
 * and one personality file per entry of `personalities`.
 */
export function mcpWorkspace(
  servers: Record<string, Record<string, unknown>>,
  personalities: Record<string, string>,
  defaultPersonality: string,
): McpWorkspace {
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-mcp-wiring-')));
  const state: Record<string, string> = {};
  const entries = Object.entries(servers).map(([name, extra]) => {
    state[name] = path.join(workspace, '.state', name);
    mkdirSync(state[name], { recursive: true });
    const { env, ...rest } = extra as { env?: Record<string, string> };
    const config = {
      command: process.execPath,
      args: [FIXTURE_SERVER],
      env: { FIXTURE_STATE_DIR: state[name], ...env },
      ...rest,
    };
    return `  ${name}: ${JSON.stringify(config)}`;
  });
  writeFileSync(
    path.join(workspace, 'quiver.yaml'),
    `mcpServers:\n${entries.join('\n')}\ndefaultPersonality: ${defaultPersonality}\n`,
  );
  mkdirSync(path.join(workspace, 'personalities'));
  for (const [id, body] of Object.entries(personalities))
    writeFileSync(path.join(workspace, `personalities/${id}.yaml`), `id: ${id}\n${body}`);
  return {
    workspace,
    state,
    starts(server) {
      const log = path.join(state[server] ?? '', 'starts.log');
      return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0;
    },
    remove: () => rmSync(workspace, { recursive: true, force: true }),
  };
}
