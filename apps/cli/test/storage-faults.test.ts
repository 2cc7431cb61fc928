import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, tempDir } from './helpers.js';
import { connectStdio, serveEnv, serveWorkspace, textOf } from './serve-fixtures.js';
import { rawChannel } from './stdio-channel.js';

const run = promisify(execFile);
const FULL_DISK_SERVE = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  'fixtures/full-disk-serve.mjs',
);
const TMPFS_BYTES = 4 * 1024 * 1024;

async function quiver(
  dir: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, '--trust-project', ...args], {
      cwd: dir,
      env: serveEnv(),
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('storage faults say what broke, and nothing is lost silently', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function kanbanWorkspace(): string {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    writeFileSync(
      path.join(workspace.dir, 'personalities/dev.yaml'),
      'id: dev\nplugins: [tools-code, tools-kanban]\npermissions:\n  allow: [read_file, kanban_*]\n',
    );
    return workspace.dir;
  }

  it('reports a kanban board truncated to 0 bytes as damaged instead of starting a new board at #1', async () => {
    const dir = kanbanWorkspace();
    for (const title of ['one', 'two', 'three']) {
      const created = await quiver(dir, ['call', 'kanban_create', '--args', JSON.stringify({ title })]);
      expect(created.stdout, created.stderr).toContain(`Created #`);
    }
    const board = path.join(dir, '.quiver/storage/project/kanban.db');
    for (const suffix of ['-wal', '-shm']) rmSync(`${board}${suffix}`, { force: true });
    truncateSync(board, 0);

    const after = await quiver(dir, ['call', 'kanban_create', '--args', '{"title":"after"}']);
    const output = after.stdout + after.stderr;
    expect(output).not.toContain('Created #1');
    expect(output).toContain('storage_damaged');
    expect(output).toContain(board);
    expect(output).toContain('is empty (0 bytes)');
    expect(output).toContain(`mv "${board}" "${board}.damaged"`);

    // Tools that do not need the board keep working.
    const read = await quiver(dir, ['call', 'read_file', '--args', '{"path":"README.md"}']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('The quick brown fox.');

    // Moved aside as the fix says: a new board starts, and the old file keeps the data.
    await run('mv', [board, `${board}.damaged`]);
    const fresh = await quiver(dir, ['call', 'kanban_create', '--args', '{"title":"fresh"}']);
    expect(fresh.stdout, fresh.stderr).toContain('Created #1 fresh');
  }, 60_000);

  it('reports a kanban board overwritten by another Quiver store (the grants) as damaged, not as a board to migrate', async () => {
    const dir = kanbanWorkspace();
    const created = await quiver(dir, ['call', 'kanban_create', '--args', '{"title":"kept"}']);
    expect(created.stdout, created.stderr).toContain('Created #1');
    const board = path.join(dir, '.quiver/storage/project/kanban.db');
    for (const suffix of ['-wal', '-shm']) rmSync(`${board}${suffix}`, { force: true });
    copyFileSync(path.join(dir, '.quiver/permissions.db'), board);

    const after = await quiver(dir, ['call', 'kanban_create', '--args', '{"title":"after"}']);
    const output = after.stdout + after.stderr;
    expect(output).not.toContain('Created #');
    expect(output).toContain('storage_damaged');
    expect(output).toContain(`${board} holds another database`);
    expect(output).toContain(`mv "${board}" "${board}.damaged"`);
  }, 60_000);

  it('keeps serving tools with a corrupt sessions.db and permissions.db, saying which file broke and how to fix it', async () => {
    const dir = kanbanWorkspace();
    const first = await quiver(dir, ['call', 'read_file', '--args', '{"path":"README.md"}']);
    expect(first.code, first.stderr).toBe(0);
    const data = path.join(dir, '.quiver');
    for (const name of ['sessions.db', 'permissions.db']) {
      for (const suffix of ['-wal', '-shm']) rmSync(path.join(data, `${name}${suffix}`), { force: true });
      writeFileSync(path.join(data, name), 'this is not a database '.repeat(400));
    }

    const call = await quiver(dir, ['call', 'read_file', '--args', '{"path":"README.md"}']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('The quick brown fox.');
    expect(call.stderr).not.toContain('SqliteError');
    expect(call.stderr).toContain(`${path.join(data, 'permissions.db')} is damaged`);
    expect(call.stderr).toContain(`mv "${path.join(data, 'sessions.db')}"`);
    expect(call.stderr.match(/the session log could not record \d+ event/g)).toHaveLength(1);

    const { client, stderr } = await connectStdio(dir);
    cleanups.push(() => client.close());
    const served = await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
    expect(served.isError, textOf(served)).toBeFalsy();
    expect(stderr()).toContain('Saved permission grants are not applied');

    // quiver rpc: a session created under an id of the client's still starts and runs tools (the
    // log cannot say whether the id is taken); resuming one needs the log and says which file broke.
    const rpc = rawChannel(dir, ['rpc'], 'content-length');
    cleanups.push(() => rpc.stop());
    const request = (id: number, method: string, params: unknown) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    await rpc.send(
      request(1, 'initialize', { protocolVersion: '1', client: { name: 'storage-faults' } }) +
        request(2, 'session.create', { sessionId: 'named' }) +
        request(3, 'session.execute', {
          sessionId: 'named',
          calls: [{ id: 'r1', name: 'read_file', args: { path: 'README.md' } }],
        }) +
        request(4, 'session.resume', { sessionId: 'earlier' }),
    );
    const created = await rpc.reply((reply) => reply.id === 2);
    expect(created.error, JSON.stringify(created.error)).toBeUndefined();
    const executed = await rpc.reply((reply) => reply.id === 3);
    expect(JSON.stringify(executed.result)).toContain('The quick brown fox.');
    const resumed = await rpc.reply((reply) => reply.id === 4);
    expect(resumed.error?.message).toContain(path.join(data, 'sessions.db'));
    expect(resumed.error?.data).toMatchObject({ code: 'storage_damaged' });

    const log = await quiver(dir, ['log']);
    expect(log.code).not.toBe(0);
    expect(log.stdout + log.stderr).toContain('storage_damaged');
    expect(log.stdout + log.stderr).toContain(path.join(data, 'sessions.db'));
  }, 60_000);

  it('names the session log and the fix when its pages are damaged past the header, not a bare SqliteError', async () => {
    const dir = kanbanWorkspace();
    const first = await quiver(dir, ['call', 'read_file', '--args', '{"path":"README.md"}']);
    expect(first.code, first.stderr).toBe(0);
    const log = path.join(dir, '.quiver/sessions.db');
    // The header page stays intact (the file opens); every page after it is overwritten.
    writeFileSync(
      log,
      Buffer.concat([readFileSync(log).subarray(0, 4096), Buffer.alloc(statSync(log).size - 4096, 0x5a)]),
    );
    const listed = await quiver(dir, ['log']);
    const output = listed.stdout + listed.stderr;
    expect(listed.code).not.toBe(0);
    expect(output).not.toContain('SqliteError');
    expect(output).toContain('storage_damaged');
    expect(output).toContain(`mv "${log}" "${log}.damaged"`);
  }, 60_000);

  it('counts what a session could not record after its log file was deleted under it, and refuses to start that log over', async () => {
    const dir = kanbanWorkspace();
    const control = tempDir('quiver-gone-control-');
    cleanups.push(control.cleanup);
    const log = path.join(dir, '.quiver/sessions.db');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [FULL_DISK_SERVE, BIN, path.dirname(log), control.dir],
      cwd: dir,
      env: serveEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'log-gone-test', version: '1.0.0' });
    await client.connect(transport);
    const read = async () => {
      const result = await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
      expect(result.isError, textOf(result)).toBeFalsy();
    };
    for (let call = 0; call < 3; call += 1) await read();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${log}${suffix}`, { force: true });
    for (let call = 0; call < 5; call += 1) await read();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await client.close();
    const refused = path.join(control.dir, 'log-error.txt');
    await until(() => existsSync(refused), 'quiver log to run after serve ended', 30_000);

    const stderr = readFileSync(path.join(control.dir, 'serve-stderr.txt'), 'utf8');
    const reports = stderr.match(/the session log could not record (\d+) event/g) ?? [];
    expect(reports, stderr).toHaveLength(1);
    expect(Number(/(\d+) event/.exec(reports[0]!)?.[1])).toBeGreaterThanOrEqual(5);
    expect(stderr).toMatch(/deleted or replaced/);
    // The next start does not take the missing log for a new one.
    expect(readFileSync(refused, 'utf8')).toContain(`The store ${log} is missing`);
  }, 60_000);

  itWithSystemTools(['bwrap'])(
    'counts the events a full disk kept out of the session log, says so once, and shows the gap in quiver log',
    async () => {
      const workspace = serveWorkspace();
      cleanups.push(workspace.cleanup);
      const control = tempDir('quiver-full-control-');
      const mount = tempDir('quiver-full-disk-');
      cleanups.push(control.cleanup, mount.cleanup);
      const transport = new StdioClientTransport({
        command: 'bwrap',
        args: [
          '--dev-bind',
          '/',
          '/',
          '--size',
          String(TMPFS_BYTES),
          '--tmpfs',
          mount.dir,
          process.execPath,
          FULL_DISK_SERVE,
          BIN,
          path.join(mount.dir, 'data'),
          control.dir,
        ],
        cwd: workspace.dir,
        env: serveEnv(),
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const client = new Client({ name: 'full-disk-test', version: '1.0.0' });
      await client.connect(transport);
      let closed = false;
      cleanups.push(() => (closed ? undefined : client.close()));
      const calls = async (count: number) => {
        for (let index = 0; index < count; index += 1) {
          const result = await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
          expect(result.isError, textOf(result)).toBeFalsy();
        }
      };

      await calls(10);
      writeFileSync(path.join(control.dir, 'fill'), '');
      await until(() => existsSync(path.join(control.dir, 'filled')), 'the disk to fill');
      await calls(30);
      // Let the log's thread fail on what it was handed before the disk is freed.
      await new Promise((resolve) => setTimeout(resolve, 500));
      writeFileSync(path.join(control.dir, 'free'), '');
      await until(() => existsSync(path.join(control.dir, 'freed')), 'the disk to be freed');
      const freedAt = Date.now();
      await calls(10);
      // The log's thread commits within moments; closing the pipes first could end serve before.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await client.close();
      closed = true;
      const logFile = path.join(control.dir, 'log.json');
      await until(() => existsSync(logFile), 'quiver log to run after serve ended', 30_000);

      stderr = readFileSync(path.join(control.dir, 'serve-stderr.txt'), 'utf8');
      const reports = stderr.match(/the session log could not record (\d+) event/g) ?? [];
      expect(reports, stderr).toHaveLength(1);
      const lost = Number(/could not record (\d+) event/.exec(reports[0]!)?.[1]);
      expect(lost).toBeGreaterThan(0);
      expect(stderr).toContain('shows the gap');

      const sessions = JSON.parse(readFileSync(logFile, 'utf8')) as Array<{
        calls: Array<{ status: string; startedAt?: number }>;
        gaps: Array<{ lostEvents?: number; message: string }>;
        summary: { lostEvents: number };
      }>;
      const served = sessions.find((session) => session.gaps.length > 0);
      expect(served, JSON.stringify(sessions).slice(0, 2_000)).toBeDefined();
      expect(served!.gaps.reduce((sum, gap) => sum + (gap.lostEvents ?? 0), 0)).toBe(lost);
      expect(served!.summary.lostEvents).toBe(lost);
      expect(readFileSync(path.join(control.dir, 'log.txt'), 'utf8')).toContain(
        `${lost} events not recorded (gap in the log)`,
      );
      expect(served!.gaps[0]!.message).toContain('disk');
      // Every call made after the disk was freed is in the log (those handed over just before it
      // filled may be among the lost).
      expect(
        served!.calls.filter((call) => call.status === 'ok' && (call.startedAt ?? 0) >= freedAt),
      ).toHaveLength(10);
    },
    90_000,
  );
});
