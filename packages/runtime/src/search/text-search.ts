import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TextSearch from '@quiver/text-search';

let loaded: typeof TextSearch | undefined;

/**
 * `@quiver/text-search` (its WordNet tables make it ~350 KB), read at the first tool search rather
 * than when the runtime loads: a session that never searches (`quiver call` of a named tool)
 * never compiles it. Its CommonJS copy (`dist/index.cjs`, built from the same bundle), loaded
 * with require(), keeps `searchTools` synchronous. The copy is found beside the package's
 * package.json rather than through a `require` export condition, so the package's public
 * surface stays one ES module with one set of types.
 */
export function textSearch(): typeof TextSearch {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    const root = path.dirname(require.resolve('@quiver/text-search/package.json'));
    loaded = require(path.join(root, 'dist', 'index.cjs')) as typeof TextSearch;
  }
  return loaded;
}
