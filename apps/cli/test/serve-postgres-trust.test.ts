import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { tempDirs, write } from './helpers.js';
import { connectStdio } from './serve-fixtures.js';

const URL_VARIABLE = 'QUIVER_TEST_LIVE_TRUST_DATABASE_URL';
const PERSONALITY = 'plugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir]\n';

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const reassemblies = (stderr: string) => stderr.split('the tools were reassembled').length - 1;

const names = async (client: Client) =>
  (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.map((tool) => tool.name);

describeWithSystemTools(['postgres', 'initdb'])('quiver serve with its trust record in PostgreSQL', () => {
  const server = usePostgresServer();
  const dirs = tempDirs('quiver-live-trust-');
  const closing: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    dirs.cleanup();
  });

  it('applies a widening edit once a person trusts it elsewhere, without a restart and without a record file', async () => {
    const workspace = dirs.make();
    const xdg = dirs.make();
    const env = {
      [URL_VARIABLE]: await server().createDatabase('live_trust'),
      QUIVER_TEST_PROJECT: 'live-trust',
      XDG_DATA_HOME: xdg,
    };
    write(
      path.join(workspace, 'quiver.yaml'),
      `defaultPersonality: dev\nstorage:\n  kind: postgres\n  url: \${${URL_VARIABLE}}\n  project: \${QUIVER_TEST_PROJECT}\n`,
    );
    write(path.join(workspace, 'personalities/dev.yaml'), PERSONALITY);
    const served = await connectStdio(workspace, { env });
    closing.push(() => served.client.close());
    expect(await names(served.client)).toContain('read_file');

    write(
      path.join(workspace, 'personalities/dev.yaml'),
      PERSONALITY.replace('list_dir]', 'list_dir, write_file]'),
    );
    await until(
      () => served.stderr().includes('permissions.allow: adds "write_file"'),
      'the widening report',
    );
    const denied = await served.client.callTool({
      name: 'write_file',
      arguments: { path: 'early.txt', content: 'x' },
    });
    expect(denied.isError).toBe(true);
    expect(existsSync(path.join(workspace, 'early.txt'))).toBe(false);

    // What `quiver trust` records after a person confirms, from another process.
    const { openQuiverProjectTrust } = await import('@quiver/wiring');
    const { inspection, trustStorage } = await openQuiverProjectTrust({
      workspace,
      env: { ...process.env, ...env },
    });
    const reloadsBefore = reassemblies(served.stderr());
    try {
      expect(inspection.trust?.state).toBe('untrusted');
      await trustStorage.writeRecord(inspection.configuration);
    } finally {
      await trustStorage.close();
    }

    await until(() => reassemblies(served.stderr()) > reloadsBefore, 'the reload after the trust');
    const written = await served.client.callTool({
      name: 'write_file',
      arguments: { path: 'trusted.txt', content: 'x' },
    });
    expect(written.isError).toBeFalsy();
    expect(existsSync(path.join(workspace, 'trusted.txt'))).toBe(true);
    expect(existsSync(path.join(xdg, 'quiver', 'trust'))).toBe(false);
  }, 240_000);
});
