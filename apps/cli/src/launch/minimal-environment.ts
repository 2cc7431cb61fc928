import { childProcessEnvironment, isChildEnvironmentName } from '@quiver/types';

/**
 * Variables the Quiver process keeps in its own environment after it re-executes itself: what
 * every child process inherits, and the locations and settings Quiver and Node read their own
 * state from. None of them conventionally holds a credential; everything else arrives over the
 * hand-off pipe and lives only in memory (see launchEnvironment).
 */
const QUIVER_OWN_NAMES: ReadonlySet<string> = new Set([
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
  // Where the machine's managed settings are, when not /etc/quiver/managed.yaml: read and protected.
  'QUIVER_MANAGED_SETTINGS',
]);

export function isKeptInProcessEnvironment(name: string): boolean {
  return isChildEnvironmentName(name) || QUIVER_OWN_NAMES.has(name);
}

/** The part of `source` that the re-executed process carries in its own environment. */
export function processEnvironment(
  source: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return childProcessEnvironment(source, isKeptInProcessEnvironment);
}
