import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The built bundle loads tsyringe with require() (scripts/bundle-dist.mjs, REQUIRE): an embedder
// that imports tsyringe itself must still share its one instance with the host, or its
// @injectable() classes and the global container would not be the host's.
const EMBEDDER = `
import { QuiverHost, TOKENS } from '@quiver/plugin-host';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { container, inject, injectable } from 'tsyringe';

class Counter {
  constructor(registry) { this.registry = registry; }
}
inject(TOKENS.toolRegistry)(Counter, undefined, 0);
injectable()(Counter);
const counter = Symbol('counter');
const fromGlobal = Symbol('from the global container');
container.register(fromGlobal, { useValue: 'embedder value' });
const host = await QuiverHost.create({
  sqlite: sqliteBackend,
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  services: [{ token: counter, scope: 'root', useClass: Counter }],
});
const built = host.container.resolve(counter);
console.log(JSON.stringify({
  sameRegistry: built.registry === host.registry,
  fromGlobal: host.container.resolve(fromGlobal),
  hostInGlobal: container.isRegistered(TOKENS.toolRegistry),
}));
await host.close();
`;

describe('the built bundle', () => {
  it("shares tsyringe with an embedder that imports it: the embedder's decorated classes and global container work", async () => {
    // A plain Node process, without vitest's setup file that loads reflect-metadata.
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', EMBEDDER], {
      cwd: packageDir,
    });
    expect(JSON.parse(stdout)).toEqual({
      sameRegistry: true,
      fromGlobal: 'embedder value',
      hostInGlobal: false,
    });
  });
});
