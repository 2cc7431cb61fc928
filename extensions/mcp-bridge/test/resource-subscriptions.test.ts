import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, eventually, type Harness, successText } from './helpers.js';

// The conformance fixture server, with its test tools: one changes the watched resource and
// says whether anyone is subscribed, one exits the process.
const fixtureServer = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@quiver/test-utils/package.json')),
  'dist/conformance-fixture-server.js',
);
const WATCHED = 'test://watched-resource';

let harness: Harness;

beforeAll(async () => {
  harness = createHarness({ docs: { command: process.execPath, args: [fixtureServer, '--test-tools'] } });
  await harness.bridge.start();
});
afterAll(() => harness.stop());

async function touch(): Promise<string> {
  return successText((await harness.call('mcp__docs__touch_watched_resource', {})).result);
}

it('subscribes once for several listeners and tells the server to stop when the last one stops', async () => {
  const first: string[] = [];
  const second: string[] = [];
  const { catalog } = harness.bridge;
  expect(catalog.offers()).toEqual({ subscribe: true, completions: true });
  const stopFirst = await catalog.subscribeResource('docs', WATCHED, (uri) => first.push(uri));
  const stopSecond = await catalog.subscribeResource('docs', WATCHED, (uri) => second.push(uri));
  expect(await touch()).toBe(`told the subscriber of ${WATCHED}`);
  await eventually(() => first.length === 1 && second.length === 1, 'both listeners to hear the update');

  await stopFirst();
  expect(await touch()).toBe(`told the subscriber of ${WATCHED}`);
  await eventually(() => second.length === 2, 'the remaining listener to hear the update');
  expect(first).toEqual([WATCHED]);

  await stopSecond();
  expect(await touch()).toBe(`nobody is subscribed to ${WATCHED}`);
});

it('subscribes again after the server restarted, so updates keep coming', async () => {
  const heard: string[] = [];
  const stop = await harness.bridge.catalog.subscribeResource('docs', WATCHED, (uri) => heard.push(uri));
  await harness.call('mcp__docs__exit_process', {});
  // The new process knows nothing of the old one's subscriptions until the bridge renews them.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { result } = await harness.call('mcp__docs__touch_watched_resource', {});
    if (result.ok && result.value === `told the subscriber of ${WATCHED}`) break;
    if (Date.now() > deadline)
      throw new Error(`the restarted server never had the subscription again: ${JSON.stringify(result)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await eventually(() => heard.length > 0, 'the update after the restart', 60_000);
  await stop();
});

it('refuses a subscription at a server it does not know, naming the servers it has', async () => {
  await expect(harness.bridge.catalog.subscribeResource('nowhere', WATCHED, () => {})).rejects.toThrow(
    'there is no MCP server "nowhere" here; the servers are: docs',
  );
});
