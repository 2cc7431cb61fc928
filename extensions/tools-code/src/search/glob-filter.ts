import picomatch from 'picomatch';

export interface GlobFilter {
  /** Files: included when no include glob is given or one matches; excluded when an exclude glob matches. */
  acceptsFile(relative: string, name: string): boolean;
  /** Directories are only ever excluded, never required to match an include glob. */
  acceptsDirectory(relative: string, name: string): boolean;
}

type Matcher = (relative: string, name: string) => boolean;

/**
 * Globs as ripgrep's `-g` reads them (gitignore style): a glob without a slash matches the name
 * at any depth, one with a slash matches the path from the searched directory.
 */
function compile(glob: string): Matcher {
  const trimmed = glob.replace(/^\.?\//, '');
  const directoryOnly = trimmed.endsWith('/');
  const body = directoryOnly ? trimmed.slice(0, -1) : trimmed;
  const isMatch = picomatch(body, { dot: true });
  if (!body.includes('/')) return (_relative, name) => isMatch(name);
  return (relative) => isMatch(relative);
}

export function createGlobFilter(
  include: readonly string[] = [],
  exclude: readonly string[] = [],
): GlobFilter {
  const includes = include.map(compile);
  const excludes = exclude.map(compile);
  return {
    acceptsFile(relative, name) {
      if (excludes.some((matches) => matches(relative, name))) return false;
      return includes.length === 0 || includes.some((matches) => matches(relative, name));
    },
    acceptsDirectory(relative, name) {
      return !excludes.some((matches) => matches(relative, name));
    },
  };
}

/** Picomatch test for a single glob in the same gitignore style (for file_search). */
export function globMatcher(glob: string): (relative: string, name: string) => boolean {
  return compile(glob);
}
