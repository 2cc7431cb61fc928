function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/** Per-server include/exclude by the server's own tool names; `*` and `?` are wildcards. */
export function createToolFilter(
  includeTools?: readonly string[],
  excludeTools?: readonly string[],
): (name: string) => boolean {
  const include = includeTools?.map(globToRegExp);
  const exclude = excludeTools?.map(globToRegExp) ?? [];
  return (name) => {
    if (include !== undefined && !include.some((pattern) => pattern.test(name))) return false;
    return !exclude.some((pattern) => pattern.test(name));
  };
}
