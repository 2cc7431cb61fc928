import { afterEach, describe, expect, it } from 'vitest';
import { quiver } from './helpers.js';
import { serveWorkspace } from './serve-fixtures.js';
import {
  openEventStream,
  type RunningHttpServe,
  rawInitialize,
  rawListTools,
  startHttpServe,
} from './serve-http-fixtures.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('quiver serve --http sessions', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const start = async (args: string[]): Promise<RunningHttpServe> => {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    const server = await startHttpServe(workspace.dir, args);
    cleanups.push(server.stop);
    return server;
  };

  it('closes a session left idle past --session-idle-timeout and tells its client to initialize again', async () => {
    const { url, stderr } = await start(['--session-idle-timeout', '0.5']);
    const { status, sessionId } = await rawInitialize(url);
    expect(status).toBe(200);
    expect((await rawListTools(url, sessionId as string)).status).toBe(200);
    // Asking would keep it alive: wait for the server to say it closed the session.
    await expect
      .poll(stderr, { timeout: 15_000 })
      .toContain(`closed MCP session ${sessionId}: idle longer than 0.5 s`);
    const after = await rawListTools(url, sessionId as string);
    expect(after.status).toBe(404);
    expect(after.body).toContain('initialize a new MCP session');
  });

  it('keeps a session whose event stream is open, however long it stays quiet', async () => {
    const { url } = await start(['--session-idle-timeout', '0.5']);
    const { sessionId } = await rawInitialize(url);
    const stream = await openEventStream(url, sessionId as string);
    expect(stream.status).toBe(200);
    await pause(2_000);
    expect((await rawListTools(url, sessionId as string)).status).toBe(200);
    stream.close();
  });

  it('closes the longest-idle session to open a new one at --max-sessions', async () => {
    const { url } = await start(['--max-sessions', '2']);
    const first = await rawInitialize(url);
    const second = await rawInitialize(url);
    // Used after the first one: the first is now the longest idle.
    expect((await rawListTools(url, second.sessionId as string)).status).toBe(200);
    const third = await rawInitialize(url);
    expect(third.status).toBe(200);
    expect((await rawListTools(url, first.sessionId as string)).status).toBe(404);
    expect((await rawListTools(url, second.sessionId as string)).status).toBe(200);
    expect((await rawListTools(url, third.sessionId as string)).status).toBe(200);
  });

  it('refuses a new session with 503 and says what to do when every session is busy', async () => {
    const { url } = await start(['--max-sessions', '1']);
    const busy = await rawInitialize(url);
    const stream = await openEventStream(url, busy.sessionId as string);
    const refused = await rawInitialize(url);
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('Too many MCP sessions');
    expect(refused.body).toContain('--max-sessions');
    expect((await rawListTools(url, busy.sessionId as string)).status).toBe(200);
    stream.close();
    await expect
      .poll(async () => (await rawInitialize(url)).status, { timeout: 10_000, interval: 200 })
      .toBe(200);
  });

  it('rejects a session limit that is not a positive number or comes without --http, saying what to pass', async () => {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    const zero = await quiver(['--trust-project', 'serve', '--http', '127.0.0.1:0', '--max-sessions', '0'], {
      cwd: workspace.dir,
    });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--max-sessions must be a whole number of at least 1, not "0"');
    const word = await quiver(['--trust-project', 'serve', '--session-idle-timeout', 'soon'], {
      cwd: workspace.dir,
    });
    expect(word.code).toBe(2);
    expect(word.stderr).toContain('--session-idle-timeout must be a positive number of seconds, not "soon"');
    const stdio = await quiver(['--trust-project', 'serve', '--max-sessions', '3'], { cwd: workspace.dir });
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('to --http only');
  });
});
