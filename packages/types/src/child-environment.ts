/**
 * Variables every child process Quiver starts may inherit (a tool's command, an MCP server,
 * Quiver re-executing itself): what programs need to run, find their tools and handle locale
 * and temporary files. None conventionally holds a credential; anything else reaches a child
 * only when configuration grants it by name.
 */
const CHILD_ENVIRONMENT_NAMES: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  // What programs on Windows cannot start without.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'PROGRAMFILES',
]);

/** True for a variable a child process may inherit: the names above and the `LC_*` locale settings. */
export function isChildEnvironmentName(name: string): boolean {
  return CHILD_ENVIRONMENT_NAMES.has(name) || name.startsWith('LC_');
}

/** The variables of `source` a child process may inherit. */
export function childProcessEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  inherits: (name: string) => boolean = isChildEnvironmentName,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    // Exported bash functions start with "()" and are a known injection vector.
    if (value !== undefined && inherits(name) && !value.startsWith('()')) environment[name] = value;
  }
  return environment;
}
