import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { quiver, write } from './helpers.js';
import { serveWorkspace } from './serve-fixtures.js';
import { startHttpServe } from './serve-http-fixtures.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('speaks 2026-07-28 to a Streamable HTTP server that offers it and calls its tools', async () => {
  // The upstream server: Quiver's own serve --http, which offers 2026-07-28 and 2025-11-25.
  const upstreamWorkspace = serveWorkspace();
  cleanups.push(upstreamWorkspace.cleanup);
  const upstream = await startHttpServe(upstreamWorkspace.dir);
  cleanups.push(() => upstream.stop());

  const downstream = serveWorkspace();
  cleanups.push(downstream.cleanup);
  write(
    path.join(downstream.dir, 'quiver.yaml'),
    `defaultPersonality: gateway\nmcpServers:\n  upstream:\n    url: ${upstream.url}\n`,
  );
  write(
    path.join(downstream.dir, 'personalities/gateway.yaml'),
    'id: gateway\nplugins: [mcp-bridge]\nmcpServers:\n  upstream: true\npermissions:\n  allow: [mcp__upstream__*]\n',
  );
  const listed = await quiver(['--trust-project', 'mcp', 'get', 'upstream', '--json'], {
    cwd: downstream.dir,
  });
  expect(listed.code, listed.stderr).toBe(0);
  expect(JSON.parse(listed.stdout).definitions).toEqual([
    expect.objectContaining({ state: 'connected', protocolVersion: '2026-07-28' }),
  ]);
  const called = await quiver(
    ['--trust-project', 'call', 'mcp__upstream__count_slowly', '--args', '{"steps":1}'],
    { cwd: downstream.dir },
  );
  expect(called.code, called.stderr).toBe(0);
  expect(called.stdout).toContain('counted to 1');
});
