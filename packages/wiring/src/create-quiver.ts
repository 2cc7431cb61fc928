import 'reflect-metadata';
import path from 'node:path';
import type { McpCatalog, StdioServerConfig } from '@quiver/mcp-bridge';
import {
  type BuiltinPlugin,
  type CreateHostOptions,
  checkPersonSettingsRules,
  describeProjectTrust,
  findConfigFile,
  type InspectProjectOptions,
  inspectProject,
  isSubdirectoryConfiguration,
  type OnDemandPlugin,
  openMcpToolPins,
  openProjectTrust,
  type Personality,
  type ProjectConfiguration,
  type ProjectInspection,
  type ProjectTrust,
  type QuiverConfigInput,
  QuiverHost,
  registeredToolKinds,
  type TrustedLaunch,
  type TrustStorage,
  workspaceRoot,
} from '@quiver/plugin-host';
import type { Session, SessionOptions } from '@quiver/runtime';
import { type ClientRelayHandle, type Logger, QuiverError } from '@quiver/types';
import { createFirstPartyBackends } from './backends.js';
import { ClientRelays } from './client-relays.js';
import { DEFAULT_PERSONALITY } from './default-personality.js';
import { type FirstPartyPlugin, firstPartyPluginsFor, loadFirstPartyPlugins } from './first-party-plugins.js';
import { checkCreateQuiverOptions } from './option-keys.js';
import {
  checkTrustProjectAllowed,
  isPersonServer,
  personSettingsOf,
  withPersonRules,
} from './person-settings.js';
import { loadPostgresBackend } from './postgres-backend.js';
import { announceSandboxNotice, personalitySandboxNotice } from './sandbox-notice.js';
import { SqliteOnDemand } from './sqlite-on-demand.js';

export interface CreateQuiverOptions {
  /** Workspace root; default: the config's workspace, else the current directory. */
  workspace?: string;
  /** Data directory; default `.quiver/` in the workspace. */
  dataDir?: string;
  /** An inline config (quiver.yaml's content as an object). */
  config?: QuiverConfigInput;
  /** A quiver.yaml path. With neither, quiver.yaml is searched from the workspace upward; else the embedded default. */
  configPath?: string;
  /** Personality for sessions created without one. */
  personality?: string;
  logger?: Logger;
  /** Extra plugins loaded as if they were first-party (e.g. in tests). */
  plugins?: BuiltinPlugin[];
  /** Environment that secrets and child environments are read from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Search for quiver.yaml upward when neither config nor configPath is given (default true). */
  discoverConfig?: boolean;
  /**
   * Trust the project configuration (quiver.yaml, personality files) for this process, as a
   * person launching Quiver does with `--trust-project`: `true` trusts it as found now; a
   * configuration (e.g. `quiver.trust.current` of an earlier instance) trusts exactly that one.
   * Without it only what `quiver trust` recorded (or the narrowing part of an edit) applies.
   * `true` never trusts a quiver.yaml discovered in a subdirectory of the workspace root
   * (`workspace`, else the outermost git directory from the current one): only the root's own,
   * one above it, or the one `configPath` names. A `TrustedLaunch` (`quiver.trust.launch` of an earlier instance)
   * also keeps the code pinned then: nothing that changed since starts.
   */
  trustProject?: boolean | ProjectConfiguration | TrustedLaunch;
  /**
   * Where the session log (SQLite) commits sessions' events: `thread` (default), a writer thread
   * of its own, so that no commit runs on the thread that runs the calls; `calling-thread`, each
   * write committed where it is made: for a process that runs one call and ends (`quiver call`
   * does), which starting a second thread only slows down. Either way a session's `close()`
   * resolves once its events are committed.
   */
  sessionLogWriter?: 'thread' | 'calling-thread';
  /**
   * The only tools this instance will run (`quiver call <tool>` passes its one): a first-party
   * plugin whose declared tools (its `declared-tools` module) name none of them is not imported
   * or loaded. Plugins without a declaration (the MCP bridge, project and `plugins` ones) load as
   * always, so a tool of theirs with the same name is judged as without the option; a name no
   * first-party plugin declares (a Claude Code name such as `Bash`, a typo) loads every plugin.
   * The tools of the plugins left out stay known by their declarations: rules and names written for
   * them are read (and warned about) as when they load, and a third-party tool of the same name
   * clashes as it would. Each personality's configuration for a plugin left out is still checked
   * (`plugins:` names it). Default: every first-party plugin.
   */
  onlyTools?: readonly string[];
  /**
   * When the MCP bridge is imported: `always`, or `when-configured`: only when `mcpServers` (every
   * settings layer merged) names a server, valid or not. Without one the bridge has no tool,
   * resource or prompt to give; what differs is that `host.plugins()` does not list it and
   * `mcpCatalog` is undefined. Default `always`, and `when-configured` with `onlyTools`.
   */
  mcpBridge?: 'always' | 'when-configured';
}

/** Every first-party plugin, imported: what `quiver` loads by default. */
export function loadAllFirstPartyPlugins(): Promise<BuiltinPlugin[]> {
  return loadFirstPartyPlugins();
}

export type QuiverSessionOptions = SessionOptions & { clientRelay?: ClientRelayHandle };

export interface Quiver {
  readonly host: QuiverHost;
  /** The config file in use, if any (undefined = embedded default or inline config). */
  readonly configFile: string | undefined;
  readonly defaultPersonality: string;
  /** How the project configuration stands against what a person trusted. */
  readonly trust: ProjectTrust;
  /** What to tell a person when part of the project configuration waits for trust; undefined when nothing does. */
  readonly trustNotice: string | undefined;
  /**
   * What `trustProject` trusted for this process, configuration and pinned code: an instance
   * reopened with it (a reloaded configuration) starts nothing that changed since launch.
   */
  readonly trustedLaunch: TrustedLaunch | undefined;
  /** Every file and directory loaded as configuration or code: no tool may write them. */
  readonly loadedConfigurationPaths: string[];
  /** `clientRelay`: whom a bridged server's questions in this session go to (default: refused). */
  createSession(options?: QuiverSessionOptions): Session;
  /** Resources and prompts of the bridged MCP servers (what `quiver serve` relays). */
  readonly mcpCatalog: McpCatalog | undefined;
  /** What to tell a person when the personality's terminal commands would run unsandboxed (`sandbox: auto` without bubblewrap). */
  sandboxNotice(personality?: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Where the configuration comes from and how trust is checked: shared by createQuiver and `quiver trust`. */
function projectOptions(options: CreateQuiverOptions): {
  configFile: string | undefined;
  project: InspectProjectOptions & Pick<CreateHostOptions, 'dataDir'>;
} {
  checkCreateQuiverOptions(options);
  const start = path.resolve(options.workspace ?? process.cwd());
  const configFile =
    options.configPath ??
    (options.config || options.discoverConfig === false ? undefined : findConfigFile(start));
  if (options.trustProject === true && configFile !== undefined && options.configPath === undefined) {
    const root = options.workspace ? path.resolve(options.workspace) : workspaceRoot(start);
    if (isSubdirectoryConfiguration(configFile, root)) throw subdirectoryTrustRefused(configFile, root);
  }
  return {
    configFile,
    project: {
      ...(configFile
        ? { configPath: path.resolve(configFile) }
        : { config: options.config ?? {}, configDir: start }),
      ...(options.workspace
        ? { workspace: path.resolve(options.workspace) }
        : configFile
          ? {}
          : { workspace: start }),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      embeddedPersonalities: { default: DEFAULT_PERSONALITY },
      ...(options.personality ? { personality: options.personality } : {}),
      trust: {
        ...(options.trustProject ? { launch: options.trustProject } : {}),
        ...(options.env ? { env: options.env } : {}),
      },
    },
  };
}

function trustedLaunchOf(
  trustProject: CreateQuiverOptions['trustProject'],
  trust: ProjectTrust,
): TrustedLaunch | undefined {
  if (typeof trustProject === 'object' && 'code' in trustProject) return trustProject;
  if (!trustProject || trust.basis !== 'launch' || trust.code === undefined) return undefined;
  return { configuration: trustProject === true ? trust.current : trustProject, code: trust.code };
}

function subdirectoryTrustRefused(configFile: string, root: string): QuiverError {
  return new QuiverError(
    'usage',
    `--trust-project trusts only the configuration at the workspace root (${root}), and the config file found is ${configFile}: a file in a subdirectory of the workspace could have been written by a tool, so it is not trusted.`,
    {
      fix: `Start Quiver in ${root}, pass -w ${path.dirname(configFile)} to make that directory the workspace, or name the file with --config.`,
      details: { configFile, root },
    },
  );
}

/**
 * The project configuration Quiver would load with these options, and how it stands against
 * what a person trusted, without starting anything (what `quiver trust` shows).
 */
export function inspectQuiverProject(options: CreateQuiverOptions = {}): ProjectInspection {
  return inspectProject(projectOptions(options).project);
}

/**
 * The same, with where trust is kept: the user's files, or PostgreSQL when quiver.yaml says so
 * (what `quiver trust` and `quiver mcp review` record in). Close the storage when done.
 */
export function openQuiverProjectTrust(
  options: CreateQuiverOptions = {},
): Promise<{ inspection: ProjectInspection; trustStorage: TrustStorage }> {
  return openProjectTrust(
    {
      ...projectOptions(options).project,
      ...(options.env ? { environment: options.env } : {}),
      postgres: loadPostgresBackend,
    },
    options.logger ?? silentLogger,
  );
}

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Composes the host with every first-party extension and backend. */
export async function createQuiver(options: CreateQuiverOptions = {}): Promise<Quiver> {
  const { configFile, project } = projectOptions(options);
  const person = personSettingsOf(options.env);
  checkTrustProjectAllowed(options.trustProject, person);
  const relays = new ClientRelays();
  let mcpCatalog: McpCatalog | undefined;
  let trustStorage: TrustStorage | undefined;
  let started: QuiverHost | undefined;
  const sqlite = new SqliteOnDemand();
  const selection = firstPartyPluginsFor(options.onlyTools);
  const bridge = userBridge(
    options.env,
    () => trustStorage,
    (catalog) => {
      mcpCatalog = catalog;
    },
    (server, config) => {
      // Servers start on a session's demand, after the host exists; before that, nothing starts.
      if (started === undefined) throw new Error('the host is not ready to check the trusted code');
      if (!isPersonServer(started, person, server)) started.checkMcpServer(server, config);
    },
  );
  const bridgeOnDemand =
    (options.mcpBridge ?? (options.onlyTools ? 'when-configured' : 'always')) !== 'always';
  const firstParty = await firstPartyBuiltins(selection.load, bridge, bridgeOnDemand);
  const hostOptions: CreateHostOptions = {
    ...project,
    trustStorageOpened: (storage) => {
      trustStorage = storage;
    },
    builtinPlugins: [...firstParty, ...(options.plugins ?? [])],
    ...(selection.unloaded.length > 0 ? { unloadedPlugins: selection.unloaded } : {}),
    backends: (context) => [
      ...sqlite.storageBackends(context.dataDir),
      ...createFirstPartyBackends(context, options.env ?? process.env),
      relays.backend(),
    ],
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.env ? { environment: options.env } : {}),
    postgres: loadPostgresBackend,
    sqlite: () => sqlite.load(),
    ...(options.sessionLogWriter ? { sessionLogWriter: options.sessionLogWriter } : {}),
  };
  // The bridge gets the (trusted) `mcpServers` table and starts a server only when a session under
  // a personality that enables it first needs it.
  hostOptions.pluginConfigSources = { 'mcp-bridge': (config) => config.mcpServers };
  const host = await QuiverHost.create(hostOptions);
  started = host;
  try {
    // The person's rules are parsed as the loaded tools' kinds, at their file and line, before any session.
    checkPersonSettingsRules(person, registeredToolKinds(host.registry));
  } catch (error) {
    await host.close();
    throw error;
  }
  const defaultPersonality = options.personality ?? host.options.config.defaultPersonality;
  const trust = host.trust as ProjectTrust;
  const sandboxNoticeFor = (personality: string) => {
    let resolved: Personality | undefined;
    try {
      resolved = host.personality(personality);
    } catch {
      // An unknown personality fails where it is used, with its own error.
    }
    return personalitySandboxNotice(resolved);
  };
  return {
    host,
    configFile,
    defaultPersonality,
    trust,
    trustNotice: describeProjectTrust(trust),
    trustedLaunch: trustedLaunchOf(options.trustProject, trust),
    get loadedConfigurationPaths() {
      return host.loadedConfigurationPaths;
    },
    get mcpCatalog() {
      return mcpCatalog;
    },
    createSession: ({ clientRelay, ...sessionOptions } = {}) => {
      const personality = sessionOptions.personality ?? defaultPersonality;
      const session = host.createSession(withPersonRules({ ...sessionOptions, personality }, person));
      if (clientRelay) relays.attach(session, clientRelay);
      // The notice is about commands: a host without a tool that runs them (`quiver call
      // read_file` loads only the file tools) neither probes bubblewrap nor loads the sandbox code.
      if (host.registry.list().some((registered) => registered.tool.capabilities?.process))
        announceSandboxNotice(session, sandboxNoticeFor(personality));
      return session;
    },
    sandboxNotice: (personality = defaultPersonality) => sandboxNoticeFor(personality),
    close: () => host.close(),
  };
}

/**
 * The first-party plugins to load, in their order. The MCP bridge is built with the user's pin
 * store; on demand (`mcpBridge: 'when-configured'`) it is imported only when the configuration has
 * an `mcpServers` entry: without one it has no tool, resource or server to give (a server a
 * personality enables but no configuration defines is ignored by the bridge too).
 */
async function firstPartyBuiltins(
  plugins: readonly FirstPartyPlugin[],
  bridge: OnDemandPlugin,
  bridgeOnDemand: boolean,
): Promise<(BuiltinPlugin | OnDemandPlugin)[]> {
  const others = await loadFirstPartyPlugins(plugins.filter((plugin) => plugin.source !== bridge.source));
  return Promise.all(
    plugins.map(async (plugin) => {
      if (plugin.source !== bridge.source)
        return others.find((loaded) => loaded.source === plugin.source) as BuiltinPlugin;
      return bridgeOnDemand ? bridge : { definition: await bridge.load(), source: bridge.source };
    }),
  );
}

/**
 * The bridge pins server tool definitions where the host keeps trust (the user's data directory
 * or the shared PostgreSQL), never in the workspace, and starts a stdio server only as trust
 * pinned its code.
 */
function userBridge(
  env: NodeJS.ProcessEnv | undefined,
  trustStorage: () => TrustStorage | undefined,
  catalog: (catalog: McpCatalog) => void,
  beforeStart: (server: string, config: StdioServerConfig) => void,
): OnDemandPlugin {
  return {
    pluginId: 'mcp-bridge',
    source: '@quiver/mcp-bridge',
    neededBy: (config) => Object.keys(config.mcpServers ?? {}).length > 0,
    load: async () =>
      (await import('@quiver/mcp-bridge')).createMcpBridgePlugin({
        pins: (paths) => trustStorage()?.pinStore() ?? openMcpToolPins(paths.workspace, env),
        catalog,
        beforeStart,
      }),
  };
}
