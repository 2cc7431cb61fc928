import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const hostileServerPath = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'hostile-server.mjs');

/** The `mcpServers` entry of the hostile fixture server, keeping its state in `stateDir`. */
export function hostileServer(
  stateDir: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [hostileServerPath],
    env: { HOSTILE_STATE_DIR: stateDir },
    ...extra,
  };
}
