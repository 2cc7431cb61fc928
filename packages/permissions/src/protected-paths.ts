import os from 'node:os';
import path from 'node:path';

/** A path Quiver loads as configuration or code, or keeps its data in: no tool may write there. */
export interface ProtectedPath {
  /** Absolute, or relative to the workspace; a directory covers everything below it; globs allowed. */
  path: string;
  /** Why it is protected, completing "protected: …" (default: Quiver loads this file as configuration). */
  reason?: string;
  /**
   * Whether the terminal's sandbox mounts it read-only too (default). `tools-only` where a program
   * must still write there as part of its own job (git its objects and index, npm node_modules):
   * the parts of those that hold configuration or code are listed again as `read-only`.
   */
  sandbox?: 'read-only' | 'tools-only';
  /** The path names itself only: glob characters in it are file name characters (a real path the host found). */
  literal?: boolean;
  /**
   * `denied`: no tool may read it either (a secret only a person may use): file tools, shell
   * operands and redirections, and directory walks meet it as a deny no rule or grant lifts.
   */
  read?: 'denied';
}

const CONFIGURATION = 'Quiver reads it as configuration wherever it is started';
const GIT = "git runs what a repository's configuration, hooks and attributes name";
const GIT_DIRECTORY =
  'a git directory decides which configuration and hooks git runs; change it with git itself';
const PYTHON_CACHE =
  "Python runs a module's compiled copy cached there in place of its source; Python writes it itself";
const NODE_MODULES =
  'allowed programs (npx, package scripts) and Quiver plugins run the code installed there; install packages with the package manager';

/**
 * Everything in any workspace that Quiver, or a program its rules can allow, reads as
 * configuration or code. The one list: the permission engine write-denies it to every tool
 * (file tools, shell redirections, shell write arguments), the shell analyzer trusts program
 * inputs it covers, and the sandbox mounts the `read-only` entries read-only.
 */
export const WORKSPACE_PROTECTED_PATHS: readonly ProtectedPath[] = [
  ...['quiver.yaml', 'quiver.yml', 'quiver.local.yaml', 'quiver.local.yml'].map((name) => ({
    path: `**/${name}`,
    reason: CONFIGURATION,
  })),
  {
    path: '**/personalities',
    reason: 'Quiver loads personalities from a personalities folder beside its configuration',
  },
  {
    path: '**/personalities/**',
    reason: 'Quiver loads personalities from a personalities folder beside its configuration',
  },
  { path: '**/.quiver', reason: "Quiver keeps a project's own state there" },
  { path: '**/.quiver/**', reason: "Quiver keeps a project's own state there" },
  ...['config', 'config.worktree', 'hooks', 'info', 'commondir', 'objects/info/alternates'].flatMap(
    (name) => [
      { path: `**/.git/${name}`, reason: GIT },
      { path: `**/.git/modules/**/${name}`, reason: GIT },
      { path: `**/.git/worktrees/*/${name}`, reason: GIT },
    ],
  ),
  { path: '**/.git', reason: GIT_DIRECTORY, sandbox: 'tools-only' },
  { path: '**/.git/**', reason: GIT_DIRECTORY, sandbox: 'tools-only' },
  { path: '**/__pycache__', reason: PYTHON_CACHE, sandbox: 'tools-only' },
  { path: '**/__pycache__/**', reason: PYTHON_CACHE, sandbox: 'tools-only' },
  { path: '**/node_modules', reason: NODE_MODULES, sandbox: 'tools-only' },
  { path: '**/node_modules/**', reason: NODE_MODULES, sandbox: 'tools-only' },
];

/**
 * Where each running `quiver serve` or `quiver rpc` writes its console's address and secret (one
 * file per process, readable by its user only): `$XDG_RUNTIME_DIR/quiver/console`, else
 * `$XDG_STATE_HOME/quiver/console` (`~/.local/state/quiver/console`). On the protected list with
 * reads denied, so no tool of the model can take the secret.
 */
export function consoleRuntimeDirectory(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'quiver', 'console');
  const stateHome = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(stateHome, 'quiver', 'console');
}

export interface HostProtectedPathsInput {
  /** Every file and directory the host loaded as configuration or code, its data and trust directories. */
  loaded: readonly string[];
  /** The data directory (grants, logs, spill files). */
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The whole list for a host: the workspace entries above, what the host loaded, its data
 * directory, the person's and the machine's Quiver configuration directories, and the runtime
 * directory a running console keeps its files in (reads denied too).
 */
export function protectedPathList(input: HostProtectedPathsInput): ProtectedPath[] {
  const env = input.env ?? process.env;
  const home = os.homedir();
  const configHome = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const entries: ProtectedPath[] = [
    {
      path: path.resolve(input.dataDir),
      reason: 'Quiver keeps its data and saved grants here',
      literal: true,
    },
    ...input.loaded.map((entry) => ({
      path: path.resolve(entry),
      reason: 'Quiver loads this file as configuration',
      literal: true,
    })),
    { path: path.join(configHome, 'quiver'), reason: "the person's own Quiver configuration", literal: true },
    { path: '/etc/quiver', reason: "the machine's Quiver configuration", literal: true },
    ...(env.QUIVER_MANAGED_SETTINGS
      ? [
          {
            path: path.resolve(env.QUIVER_MANAGED_SETTINGS),
            reason: "the machine's managed Quiver settings",
            literal: true,
          },
        ]
      : []),
    ...(env.XDG_RUNTIME_DIR
      ? [
          {
            path: path.join(env.XDG_RUNTIME_DIR, 'quiver'),
            reason: 'a running Quiver console keeps its files here',
            literal: true,
          },
        ]
      : []),
    {
      path: consoleRuntimeDirectory(env),
      reason:
        "a running Quiver console keeps its address and secret here, for the person's `quiver console` only",
      literal: true,
      read: 'denied',
    },
    ...WORKSPACE_PROTECTED_PATHS,
  ];
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.path) && seen.add(entry.path) !== undefined);
}
