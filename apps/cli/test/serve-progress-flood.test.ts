import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, tempDirs, write } from './helpers.js';
import { connectStdio, recordProgress, textOf } from './serve-fixtures.js';

const HOSTILE_SERVER = path.join(REPO, 'extensions/mcp-bridge/test/fixtures/hostile-server.mjs');
const NOTIFICATIONS = 20_000;

describe('quiver serve in front of a server that floods a call with progress', () => {
  const dirs = tempDirs('quiver-serve-flood-');
  afterEach(dirs.cleanup);

  it('passes a few progress notices a second to its client, the last with the final value', async () => {
    const workspace = dirs.make();
    write(
      path.join(workspace, 'quiver.yaml'),
      [
        'defaultPersonality: dev',
        'mcpServers:',
        '  hostile:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(HOSTILE_SERVER)}]`,
        `    env: { HOSTILE_STATE_DIR: ${JSON.stringify(dirs.make())} }`,
        '',
      ].join('\n'),
    );
    write(
      path.join(workspace, 'personalities/dev.yaml'),
      'plugins: [mcp-bridge]\nmcpServers:\n  hostile: true\npermissions:\n  allow: [mcp__hostile__*]\n',
    );
    const { client, transport } = await connectStdio(workspace, { env: { XDG_DATA_HOME: dirs.make() } });
    try {
      const notices = recordProgress(transport);
      const started = Date.now();
      const result = await client.callTool(
        { name: 'mcp__hostile__flood', arguments: { count: NOTIFICATIONS } },
        { onprogress: () => {}, timeout: 120_000 },
      );
      const seconds = (Date.now() - started) / 1_000;
      expect(textOf(result)).toMatch(new RegExp(`^sent ${NOTIFICATIONS} in \\d+ ms$`));
      expect(notices.length).toBeGreaterThanOrEqual(1);
      expect(notices.length).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 3);
      expect(notices.at(-1)?.progress).toBeGreaterThanOrEqual(NOTIFICATIONS);
    } finally {
      await client.close();
    }
  }, 150_000);
});
