import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness, successText } from './helpers.js';

// The conformance fixture server offers resources and prompts and no tools at all.
const fixtureServer = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@quiver/test-utils/package.json')),
  'dist/conformance-fixture-server.js',
);

let harness: Harness;

beforeAll(async () => {
  harness = createHarness({ docs: { command: process.execPath, args: [fixtureServer] } });
  for (const tool of harness.bridge.resourceTools())
    harness.registry.register(tool, { pluginId: 'mcp-bridge' });
  await harness.bridge.start();
});
afterAll(() => harness.stop());

it('connects to a server without tools and reads its resources', async () => {
  expect(harness.bridge.status()[0]).toMatchObject({ state: 'connected', tools: [] });
  const { result } = await harness.call('read_mcp_resource', { server: 'docs', uri: 'test://static-text' });
  expect(successText(result)).toContain('This is the content of the static text resource.');
});
