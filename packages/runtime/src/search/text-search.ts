import { createRequire } from 'node:module';
import type * as TextSearch from '@quiver/text-search';

let loaded: typeof TextSearch | undefined;

/**
 * `@quiver/text-search` (its WordNet tables make it ~350 KB), read at the first tool search rather
 * than when the runtime loads: a session that never searches (`quiver call` of a named tool)
 * never compiles it. Its CommonJS copy, loaded with require(), keeps `searchTools` synchronous.
 */
export function textSearch(): typeof TextSearch {
  loaded ??= createRequire(import.meta.url)('@quiver/text-search') as typeof TextSearch;
  return loaded;
}
