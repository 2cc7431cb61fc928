import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, tempDirs, write } from './helpers.js';
import { serveEnv, textOf } from './serve-fixtures.js';

const dirs = tempDirs('quiver-http-live-');

const PERSONALITY = 'plugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir]\n';

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `quiver serve --http` on a free loopback port; resolves with its URL once it listens. */
function startHttp(workspace: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [BIN, '--trust-project', 'serve', '--http', '127.0.0.1:0', '--json'],
    {
      cwd: workspace,
      env: { ...serveEnv(), ...env },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(stdout.slice(0, newline)).url);
    });
    child.on('exit', (code) => reject(new Error(`quiver serve exited with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

async function connect(url: string) {
  const client = new Client({ name: 'http-live', version: '1.0.0' });
  const changes = { count: 0 };
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changes.count += 1;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, changes };
}

const names = async (client: Client) =>
  (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.map((tool) => tool.name);

describe('quiver serve --http with a configuration edited while it runs', () => {
  const closing: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    dirs.cleanup();
  });

  it('reassembles every open HTTP session on a narrowing edit, and holds a widening one back', async () => {
    const workspace = dirs.make();
    const env = { XDG_DATA_HOME: dirs.make() };
    write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(path.join(workspace, 'personalities/dev.yaml'), PERSONALITY);
    write(path.join(workspace, 'notes.txt'), 'hello\n');
    const served = startHttp(workspace, env);
    closing.push(() => {
      served.child.kill('SIGKILL');
    });
    const url = await served.url;
    const first = await connect(url);
    const second = await connect(url);
    closing.unshift(
      () => first.client.close(),
      () => second.client.close(),
    );
    for (const session of [first, second])
      expect(await names(session.client)).toEqual(expect.arrayContaining(['read_file', 'list_dir']));

    const before = [first.changes.count, second.changes.count];
    write(path.join(workspace, 'personalities/dev.yaml'), `${PERSONALITY}  deny: [list_dir]\n`);
    await until(
      () => first.changes.count > (before[0] ?? 0) && second.changes.count > (before[1] ?? 0),
      'tools/list_changed on both HTTP sessions',
    );
    for (const session of [first, second]) {
      const listed = await names(session.client);
      expect(listed).not.toContain('list_dir');
      expect(listed).toContain('read_file');
      const refused = await session.client.callTool({ name: 'list_dir', arguments: { path: '.' } }).then(
        (result) => textOf(result),
        (error: Error) => error.message,
      );
      expect(refused).not.toContain('notes.txt');
    }

    // Widening: an allow rule added by an edit waits for `quiver trust`, on every session.
    write(
      path.join(workspace, 'personalities/dev.yaml'),
      `${PERSONALITY.replace('[read_file, list_dir]', '[read_file, list_dir, write_file]')}  deny: [list_dir]\n`,
    );
    await until(
      () => served.stderr().includes('permissions.allow: adds "write_file"'),
      'the widening report',
    );
    for (const session of [first, second]) {
      const written = await session.client.callTool({
        name: 'write_file',
        arguments: { path: 'x.txt', content: 'x' },
      });
      expect(written.isError).toBe(true);
    }
    expect(existsSync(path.join(workspace, 'x.txt'))).toBe(false);

    // A client connecting after the edits gets the running configuration, not the edited file's widening.
    const late = await connect(url);
    closing.unshift(() => late.client.close());
    const lateNames = await names(late.client);
    expect(lateNames).not.toContain('list_dir');
    expect(lateNames).toContain('read_file');
  });
});
