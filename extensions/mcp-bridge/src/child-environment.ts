/**
 * Variables a server process needs to run and to find its tools; never credentials. Everything
 * else reaches the server only through its config `env`.
 */
const INHERITED_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'PROGRAMFILES',
];

/** The environment of a stdio server: a minimal inherited set plus what its config grants. */
export function childEnvironment(
  granted: Readonly<Record<string, string>>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const key of INHERITED_VARIABLES) {
    const value = parent[key];
    // Exported bash functions start with "()" and are a known injection vector.
    if (value !== undefined && !value.startsWith('()')) environment[key] = value;
  }
  return { ...environment, ...granted };
}
