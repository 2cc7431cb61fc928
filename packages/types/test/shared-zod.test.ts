import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MARK = '// bundled by scripts/bundle-dist.mjs';

/** Every module the bundler wrote in a first-party package's dist (entries and chunks). */
function bundledModules(): string[] {
  const files: string[] = [];
  for (const group of ['packages', 'extensions', 'apps']) {
    for (const name of readdirSync(path.join(REPO, group))) {
      const dist = path.join(REPO, group, name, 'dist');
      let entries: string[];
      try {
        entries = readdirSync(dist);
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (!entry.endsWith('.js')) continue;
        const file = path.join(dist, entry);
        if (readFileSync(file, 'utf8').slice(0, 400).includes(MARK)) files.push(file);
      }
    }
  }
  return files;
}

/** Built by `pnpm build` (typecheck runs before it, so the module is named, not typed, here). */
const SHARED_ZOD = '@quiver/types/zod';

/** What a module imports (statically or not), as esbuild reads it: no text inside a string counts. */
async function importsOf(file: string): Promise<string[]> {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    plugins: [
      {
        name: 'every-import-external',
        setup(esbuild) {
          esbuild.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((found) => found.path));
}

describe('zod, one module for every first-party package', () => {
  it('is what each bundle imports: @quiver/types/zod, never the zod package and its hundred modules', async () => {
    const bundles = bundledModules();
    expect(bundles.length).toBeGreaterThan(10);
    const direct: string[] = [];
    for (const file of bundles)
      if ((await importsOf(file)).some((imported) => /^zod(\/|$)/.test(imported))) direct.push(file);
    expect(direct.map((file) => path.relative(REPO, file))).toEqual([]);
    const shared = (await import(SHARED_ZOD)) as typeof import('zod');
    const schema = shared.z.object({ path: shared.z.string().describe('Where to read') });
    expect(schema.parse({ path: 'a' })).toEqual({ path: 'a' });
    expect(shared.z.toJSONSchema(schema)).toMatchObject({
      properties: { path: { description: 'Where to read' } },
    });
  });

  it('reads a schema made with another copy of zod, as a plugin or embedder with its own zod has', async () => {
    const shared = (await import(SHARED_ZOD)) as typeof import('zod');
    const { z: own } = await import('zod');
    const schema = own.object({ limit: own.number().int().describe('How many') });
    expect(shared.z.toJSONSchema(schema)).toMatchObject({
      properties: { limit: { description: 'How many', type: 'integer' } },
    });
  });
});
