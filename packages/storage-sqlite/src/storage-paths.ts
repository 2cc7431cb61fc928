import { isAbsolute, join, relative, resolve } from 'node:path';
import { QuiverError, type StorageScope } from '@quiver/types';

// Ids and names are refused rather than rewritten: a lossy rewrite could map two personalities
// onto one directory and let one read the other's data.
const SEGMENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$/;

/** Checks that `value` is safe as one path segment; throws `input_invalid` when it is not. */
export function assertPathSegment(value: string, what: string): string {
  if (!SEGMENT_PATTERN.test(value) || value.includes('..')) {
    throw new QuiverError(
      'input_invalid',
      `The ${what} ${JSON.stringify(value)} cannot name a storage location.`,
      {
        fix: `Use 1-128 characters of letters, digits, '_', '-', '.', '@', starting with a letter or digit and without '..'.`,
        details: { what, value },
      },
    );
  }
  return value;
}

export interface ScopeIdentities {
  personality?: string;
  project?: string;
  user?: string;
}

/** `<dataDir>/storage/<scope>[/<identity>]/<name>.db`, checked to stay inside the storage root. */
export function storageFilePath(
  dataDir: string,
  scope: StorageScope,
  identity: string,
  name: string,
): string {
  assertPathSegment(name, 'database name');
  const root = resolve(dataDir, 'storage');
  const segments =
    scope === 'project'
      ? [scope, `${name}.db`]
      : [scope, assertPathSegment(identity, `${scope} id`), `${name}.db`];
  const path = join(root, ...segments);
  const fromRoot = relative(root, path);
  if (fromRoot.startsWith('..') || isAbsolute(fromRoot)) {
    throw new QuiverError('input_invalid', `The storage path ${path} leaves ${root}.`, {
      fix: 'Use plain names and ids without path separators.',
    });
  }
  return path;
}
