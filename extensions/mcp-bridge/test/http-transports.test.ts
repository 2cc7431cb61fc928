import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnvironment } from '../src/index.js';
import { createHarness, eventually, everythingServer, type Harness, successText } from './helpers.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts server-everything over HTTP and waits until it listens. A free port can be taken by
 * another process before the server binds it (a loaded machine runs many tests at once): then it
 * starts again on another one, unless the test asked for that port.
 */
async function startHttpEverything(
  mode: 'sse' | 'streamableHttp',
  reusePort?: number,
): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = reusePort ?? (await freePort());
    const child = spawn(process.execPath, [everythingServer, mode], {
      env: { ...childEnvironment({}), PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const started = await new Promise<boolean>((resolve, reject) => {
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // "listening on port N" (Streamable HTTP), "running on port N" (SSE); not "Port N is already in use".
        if (/(?:listening|running) on port \d+/i.test(output)) resolve(true);
        else if (/already in use/i.test(output)) resolve(false);
      });
      child.once('exit', (code) =>
        reject(new Error(`server-everything ${mode} exited with ${code}: ${output}`)),
      );
    });
    if (started) return { port, child };
    child.kill();
    if (reusePort !== undefined || attempt >= 3)
      throw new Error(`port ${port} is in use: server-everything could not start`);
  }
}

describe('HTTP servers', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function bridgeTo(
    mode: 'sse' | 'streamableHttp',
    path: string,
    extra: Record<string, unknown> = {},
  ): Promise<Harness> {
    const { port, child } = await startHttpEverything(mode);
    cleanups.push(() => {
      child.kill();
    });
    const harness = createHarness({ remote: { url: `http://127.0.0.1:${port}${path}`, ...extra } });
    cleanups.push(harness.stop);
    await harness.bridge.start();
    return harness;
  }

  it('calls the tools of a Streamable HTTP server', async () => {
    const harness = await bridgeTo('streamableHttp', '/mcp', { headers: { 'x-quiver-test': '1' } });
    expect(harness.bridge.status()[0]).toMatchObject({ state: 'connected', transport: 'streamable-http' });
    const { result, emissions } = await harness.call('mcp__remote__trigger-long-running-operation', {
      duration: 0.2,
      steps: 2,
    });
    expect(successText(result)).toContain('completed');
    expect(emissions.map((emission) => (emission.type === 'progress' ? emission.progress : -1))).toEqual([
      1, 2,
    ]);
  });

  it('falls back to SSE for a server that only speaks the old SSE transport', async () => {
    const harness = await bridgeTo('sse', '/sse');
    expect(harness.bridge.status()[0]).toMatchObject({ state: 'connected', transport: 'sse' });
    const { result } = await harness.call('mcp__remote__echo', { message: 'over sse' });
    expect(successText(result)).toBe('Echo: over sse');
  });

  it('marks an HTTP server that went away as down and reconnects when it is back', async () => {
    const first = await startHttpEverything('streamableHttp');
    const harness = createHarness({ remote: { url: `http://127.0.0.1:${first.port}/mcp` } });
    cleanups.push(harness.stop);
    await harness.bridge.start();
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    // Its event stream breaks and a ping goes unanswered: it is down before any call is made.
    await eventually(() => harness.bridge.status()[0]?.state !== 'connected', 'the bridge to notice');
    expect(harness.bridge.status()[0]).toMatchObject({ state: expect.stringMatching(/down|connecting/) });
    expect(harness.diagnostics).toContainEqual(expect.objectContaining({ code: 'mcp_server_down' }));
    const whileDown = await harness.call('mcp__remote__echo', { message: 'anyone?' });
    expect(whileDown.result).toMatchObject({ ok: false, code: 'not_available' });

    const second = await startHttpEverything('streamableHttp', first.port);
    cleanups.push(() => {
      second.child.kill();
    });
    await eventually(() => harness.bridge.status()[0]?.state === 'connected', 'the bridge to reconnect');
    const again = await harness.call('mcp__remote__echo', { message: 'back' });
    expect(successText(again.result)).toBe('Echo: back');
  });
});
