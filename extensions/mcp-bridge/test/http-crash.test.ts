import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnvironment } from '../src/index.js';
import { createHarness, eventually, everythingServer, successText } from './helpers.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function startStreamableHttp(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [everythingServer, 'streamableHttp'], {
    env: { ...childEnvironment({}), PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // "listening on port N", not "Port N is already in use".
      if (/listening on port \d+/i.test(output)) resolve();
      else if (/already in use/i.test(output)) reject(new Error(`port ${port} is taken: ${output}`));
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${output}`)));
  });
  return child;
}

describe('a Streamable HTTP server killed in the middle of a call', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('fails the call in flight at once with a clear error and reconnects when the server is back', async () => {
    const port = await freePort();
    const first = await startStreamableHttp(port);
    cleanups.push(() => void first.kill('SIGKILL'));
    const harness = createHarness({
      remote: { url: `http://127.0.0.1:${port}/mcp`, callTimeoutMs: 30_000 },
    });
    cleanups.push(harness.stop);
    await harness.bridge.start();

    const call = harness.call('mcp__remote__trigger-long-running-operation', { duration: 20, steps: 20 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const killedAt = Date.now();
    first.kill('SIGKILL');
    const { result } = await call;
    const failedAfter = Date.now() - killedAt;
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    if (!result.ok) {
      expect(result.error).toContain('"remote" dropped the connection while the call was running');
      expect(result.error).toContain('it was not retried');
    }
    // Far below the call timeout (30 s) and the 20 s the operation would have taken.
    expect(failedAfter).toBeLessThan(3_000);
    expect(harness.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'mcp_server_down',
        message: expect.stringContaining('the connection dropped'),
      }),
    );

    const second = await startStreamableHttp(port);
    cleanups.push(() => void second.kill('SIGKILL'));
    await eventually(() => harness.bridge.status()[0]?.state === 'connected', 'the bridge to reconnect');
    const again = await harness.call('mcp__remote__echo', { message: 'back' });
    expect(successText(again.result)).toBe('Echo: back');
  }, 60_000);

  it('retries the call once the server is back when the server is trusted and the tool says it is idempotent', async () => {
    const port = await freePort();
    const first = await startStreamableHttp(port);
    cleanups.push(() => void first.kill('SIGKILL'));
    const harness = createHarness({
      remote: { url: `http://127.0.0.1:${port}/mcp`, callTimeoutMs: 30_000, trustAnnotations: true },
    });
    cleanups.push(harness.stop);
    await harness.bridge.start();

    const call = harness.call('mcp__remote__trigger-long-running-operation', { duration: 2, steps: 2 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    first.kill('SIGKILL');
    await eventually(() => harness.bridge.status()[0]?.state !== 'connected', 'the bridge to see the drop');
    const second = await startStreamableHttp(port);
    cleanups.push(() => void second.kill('SIGKILL'));

    const { result } = await call;
    expect(successText(result)).toContain('Long running operation completed');
  }, 60_000);
});
