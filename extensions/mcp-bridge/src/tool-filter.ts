import { matchesNamePattern } from '@quiver/types';

/** Per-server include/exclude by the server's own tool names; `*` and `?` are wildcards. */
export function createToolFilter(
  includeTools?: readonly string[],
  excludeTools?: readonly string[],
): (name: string) => boolean {
  return (name) => {
    if (includeTools !== undefined && !includeTools.some((pattern) => matchesNamePattern(pattern, name)))
      return false;
    return !excludeTools?.some((pattern) => matchesNamePattern(pattern, name));
  };
}
