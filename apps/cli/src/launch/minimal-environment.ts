/**
 * Variables the Quiver process keeps in its own environment after it re-executes itself: what
 * Node, the shell tools and locale handling need, and the locations Quiver reads its own state
 * from. None of them conventionally holds a credential; everything else arrives over the
 * hand-off pipe and lives only in memory (see launchEnvironment).
 */
const KEPT_NAMES: ReadonlySet<string> = new Set([
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
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_DIRS',
  // Node's own settings (heap size, extra CA certificates) must hold in the re-executed process too.
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'QUIVER_LOG_LEVEL',
  'QUIVER_REQUIRE_SYSTEM_TOOLS',
]);

export function isKeptInProcessEnvironment(name: string): boolean {
  return KEPT_NAMES.has(name) || name.startsWith('LC_');
}

/** The part of `source` that the re-executed process carries in its own environment. */
export function processEnvironment(
  source: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    // Exported bash functions start with "()" and are a known injection vector.
    if (value !== undefined && isKeptInProcessEnvironment(name) && !value.startsWith('()'))
      kept[name] = value;
  }
  return kept;
}
