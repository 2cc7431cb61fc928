import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs, write } from './helpers.js';
import { connectStdio } from './serve-fixtures.js';

const dirs = tempDirs('quiver-live-');

const PERSONALITY = 'plugins: [tools-code, mcp-bridge]\npermissions:\n  allow: [read_file, list_dir]\n';

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const names = async (client: Client) =>
  (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.map((tool) => tool.name);

describe('quiver serve with a configuration edited while it runs', () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    dirs.cleanup();
  });

  it('applies a narrowing edit at once, holds back a widening one until it is trusted, and keeps running through an invalid one', async () => {
    const workspace = dirs.make();
    const marker = path.join(dirs.make(), 'started');
    const env = { XDG_DATA_HOME: dirs.make() };
    write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(path.join(workspace, 'personalities/dev.yaml'), PERSONALITY);
    const served = await connectStdio(workspace, { env });
    closing.push(() => served.client.close());
    let listChanged = 0;
    served.client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged += 1;
    });
    expect(await names(served.client)).toEqual(expect.arrayContaining(['read_file', 'list_dir']));

    // Narrowing: a deny rule hides list_dir from the running server.
    const announced = listChanged;
    write(path.join(workspace, 'personalities/dev.yaml'), `${PERSONALITY}  deny: [list_dir]\n`);
    await until(() => served.stderr().includes('the tools were reassembled'), 'the reload');
    await until(() => listChanged > announced, 'tools/list_changed after a narrowing edit');
    expect(await names(served.client)).not.toContain('list_dir');
    expect(await names(served.client)).toContain('read_file');

    // Widening: a new server and an allow rule wait for `quiver trust`.
    const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
    write(
      path.join(workspace, 'quiver.yaml'),
      `defaultPersonality: dev\nmcpServers:\n  marker:\n    command: ${JSON.stringify(process.execPath)}\n    args: ["-e", ${JSON.stringify(script)}]\n`,
    );
    write(
      path.join(workspace, 'personalities/dev.yaml'),
      `${PERSONALITY.replace('[read_file, list_dir]', '[read_file, list_dir, write_file]')}  deny: [list_dir]\nmcpServers:\n  marker: true\n`,
    );
    await until(
      () => served.stderr().includes('mcpServers.marker: adds the MCP server'),
      'the widening report',
    );
    expect(served.stderr()).toContain('permissions.allow: adds "write_file"');
    expect(served.stderr()).toContain('quiver trust');
    expect(existsSync(marker)).toBe(false);
    const denied = await served.client.callTool({
      name: 'write_file',
      arguments: { path: 'x.txt', content: 'x' },
    });
    expect(denied.isError).toBe(true);
    expect(existsSync(path.join(workspace, 'x.txt'))).toBe(false);

    // A person trusts the edited configuration: the running server picks it up.
    const { inspectQuiverProject } = await import('@quiver/wiring');
    const { writeTrustRecord } = await import('@quiver/plugin-host');
    const inspection = inspectQuiverProject({ workspace, env: { ...process.env, ...env } });
    const reloadsBefore = reassemblies(served.stderr());
    writeTrustRecord(workspace, inspection.configuration, { env });
    await until(() => existsSync(marker), 'the trusted server to start');
    // The server starts while the new configuration is built; calls move to it once reassembled.
    await until(() => reassemblies(served.stderr()) > reloadsBefore, 'the reload after trust');
    const written = await served.client.callTool({
      name: 'write_file',
      arguments: { path: 'x.txt', content: 'x' },
    });
    expect(written.isError).toBeFalsy();

    // Invalid: the running configuration stays.
    write(path.join(workspace, 'personalities/dev.yaml'), 'plugins: [tools-code\n');
    await until(() => served.stderr().includes('was not applied'), 'the invalid-edit report');
    expect(await names(served.client)).toContain('read_file');
    expect(await names(served.client)).not.toContain('list_dir');
    expect(await names(served.client)).toContain('write_file');
  });
});

function reassemblies(stderr: string): number {
  return stderr.split('the tools were reassembled').length - 1;
}
