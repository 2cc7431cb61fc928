import 'reflect-metadata';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { writeTrustRecord } from '@quiver/plugin-host';
import { afterEach, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const require = createRequire(import.meta.url);
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function temp(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** A workspace with plugin package `acme` installed in its node_modules, with zod as a declared dependency. */
function workspaceWithPlugin(): { workspace: string; entry: string; env: NodeJS.ProcessEnv } {
  const workspace = temp('quiver-launch-code-');
  const plugin = path.join(workspace, 'node_modules/acme');
  write(
    path.join(plugin, 'package.json'),
    JSON.stringify({
      name: 'acme',
      type: 'module',
      dependencies: { zod: '^4.0.0' },
      quiver: { plugin: './index.js' },
    }),
  );
  write(
    path.join(plugin, 'index.js'),
    `import { z } from 'zod';
export default { id: 'acme', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'acme_hello', description: 'Says hello.', input: z.object({}), capabilities: {},
    execute: () => ({ ok: true, value: 'hello' }) });
} };
`,
  );
  symlinkSync(
    path.dirname(require.resolve('zod/package.json')),
    path.join(workspace, 'node_modules/zod'),
    'dir',
  );
  write(path.join(workspace, 'quiver.yaml'), 'plugins: [acme]\n');
  write(path.join(workspace, 'personalities/default.yaml'), 'plugins: [acme]\n');
  return {
    workspace,
    entry: path.join(plugin, 'index.js'),
    env: { ...process.env, XDG_DATA_HOME: temp('quiver-xdg-') },
  };
}

async function open(options: Parameters<typeof createQuiver>[0]): Promise<Quiver> {
  const quiver = await createQuiver({ logger: silent, ...options });
  cleanups.push(() => quiver.close());
  return quiver;
}

it('reloads a --trust-project instance with the code pinned at launch, refusing a plugin edited since', async () => {
  const { workspace, entry, env } = workspaceWithPlugin();
  const launched = await open({ workspace, env, trustProject: true });
  expect(launched.host.plugins().loaded.map((plugin) => plugin.id)).toContain('acme');
  expect(launched.trustedLaunch?.code.plugins.acme?.location).toBe(path.join(workspace, 'node_modules/acme'));

  // What `quiver serve` does when the configuration changes: reopen with what the launch trusted.
  const unchanged = await open({ workspace, env, trustProject: launched.trustedLaunch });
  expect(unchanged.host.plugins().loaded.map((plugin) => plugin.id)).toContain('acme');

  appendFileSync(entry, '// edited while Quiver ran\n');
  const reloaded = await open({ workspace, env, trustProject: launched.trustedLaunch });
  const [failure] = reloaded.host.plugins().failed;
  expect(failure).toMatchObject({ plugin: 'acme', code: 'code_pin_changed' });
  expect(failure?.message).toContain(
    `${entry} changed since this process pinned it at launch (--trust-project)`,
  );
  expect(failure?.fix).toContain('`quiver trust`');
});

it('loads no plugin of a trust record written before Quiver pinned code, and says to trust it again', async () => {
  const { workspace, env } = workspaceWithPlugin();
  const launched = await open({ workspace, env, trustProject: true });
  const file = writeTrustRecord(workspace, launched.trust.current, { env });
  const { code: _code, ...older } = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify(older));

  const reopened = await open({ workspace, env });
  expect(reopened.trust).toMatchObject({ state: 'trusted', basis: 'record' });
  const [failure] = reopened.host.plugins().failed;
  expect(failure).toMatchObject({ plugin: 'acme', code: 'code_pin_changed' });
  expect(failure?.message).toContain(
    'the trust record pins no code for it (it was trusted before Quiver pinned',
  );
  expect(failure?.fix).toContain('`quiver trust`');
});
