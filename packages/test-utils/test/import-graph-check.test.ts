import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const script = join(repositoryRoot, 'scripts', 'check-import-graph.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'quiver-import-graph-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A repository tree in a temp dir, from path → file text. */
function plantTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(scratch, 'tree-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function runCheck(root: string) {
  const result = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A tree that keeps every rule: one-way imports, drivers only in the storage layer and tests. */
const cleanTree = {
  'packages/types/src/index.ts': "export type { Scope } from './scope.js';\n",
  'packages/types/src/scope.ts': "export type Scope = 'user';\n",
  'packages/runtime/src/log.ts':
    "import type { Scope } from '../../types/src/index.js';\nexport const s: Scope = 'user';\n",
  'packages/runtime/test/log.test.ts': "import Database from 'better-sqlite3';\nimport '../src/log.js';\n",
  'packages/runtime/package.json': JSON.stringify({ name: '@quiver/runtime', devDependencies: { pg: '8' } }),
  'packages/storage-sqlite/src/open.ts': "import Database from 'better-sqlite3';\nexport { Database };\n",
  'packages/storage-sqlite/package.json': JSON.stringify({
    name: '@quiver/storage-sqlite',
    dependencies: { 'better-sqlite3': '12' },
  }),
  'packages/wiring/src/backend.ts': "export const load = () => import('@quiver/storage-postgres');\n",
};

describe('the import-graph check (scripts/check-import-graph.mjs)', () => {
  it('passes a tree with one-way imports and drivers only in the storage layer, wiring and tests', () => {
    const { status, output } = runCheck(plantTree(cleanTree));
    expect(output).toContain('no circles, drivers only in the storage layer');
    expect(status).toBe(0);
  });

  it('fails on a circle made only of type-only imports and names every file in it', () => {
    const root = plantTree({
      ...cleanTree,
      'packages/runtime/src/contracts.ts':
        "import type { Executor } from './lifecycle/executor.js';\nexport interface Contract { run: Executor }\n",
      'packages/runtime/src/lifecycle/executor.ts':
        "import type { Engine } from './permission-engine.js';\nexport type Executor = (engine: Engine) => void;\n",
      'packages/runtime/src/lifecycle/permission-engine.ts':
        "import type { Contract } from '../contracts.js';\nexport type Engine = Contract;\n",
    });
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain(
      'import circle 1 (3 files): packages/runtime/src/contracts.ts -> packages/runtime/src/lifecycle/executor.ts -> packages/runtime/src/lifecycle/permission-engine.ts -> packages/runtime/src/contracts.ts',
    );
    expect(output).toContain('1 circles, 0 driver imports');
  });

  it('fails on a circle through a re-export and a dynamic import', () => {
    const root = plantTree({
      ...cleanTree,
      'apps/cli/src/program.ts': "export * from './commands/call.js';\nexport const globalOptions = {};\n",
      'apps/cli/src/commands/call.ts':
        "export const run = async () => (await import('../program.js')).globalOptions;\n",
    });
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain(
      'import circle 1 (2 files): apps/cli/src/commands/call.ts -> apps/cli/src/program.ts -> apps/cli/src/commands/call.ts',
    );
  });

  it('fails on a driver imported or declared outside the storage layer, naming file, line and package', () => {
    const root = plantTree({
      ...cleanTree,
      'packages/permissions/src/grant-store.ts':
        "import type { Scope } from '../../types/src/index.js';\nimport pg from 'pg';\nexport const store = (s: Scope) => new pg.Pool();\n",
      'extensions/tools-memory/src/open.ts': "export const open = () => import('better-sqlite3');\n",
      'packages/runtime/src/log-backend.ts':
        "export type { SqliteBackend } from '@quiver/storage-sqlite/backend';\n",
      'packages/permissions/package.json': JSON.stringify({
        name: '@quiver/permissions',
        dependencies: { pg: '8' },
      }),
    });
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain(
      "driver import outside the storage layer: packages/permissions/src/grant-store.ts:2 imports 'pg'",
    );
    expect(output).toContain(
      "driver import outside the storage layer: extensions/tools-memory/src/open.ts:1 imports 'better-sqlite3'",
    );
    expect(output).toContain(
      "driver import outside the storage layer: packages/runtime/src/log-backend.ts:1 imports '@quiver/storage-sqlite/backend'",
    );
    expect(output).toContain(
      "driver dependency outside the storage layer: packages/permissions/package.json declares 'pg' in dependencies",
    );
    expect(output).toContain(
      '0 circles, 3 driver imports and 1 driver dependencies outside the storage layer',
    );
    expect(output).toContain('write the store against SqlStore');
  });
});
