import 'reflect-metadata';
import path from 'node:path';
import { createMcpBridgePlugin, mcpBridgePlugin } from '@quiver/mcp-bridge';
import {
  type BuiltinPlugin,
  type CreateHostOptions,
  describeProjectTrust,
  findConfigFile,
  type InspectProjectOptions,
  inspectProject,
  openMcpToolPins,
  type Personality,
  type ProjectConfiguration,
  type ProjectInspection,
  type ProjectTrust,
  type QuiverConfig,
  type QuiverConfigInput,
  QuiverHost,
  TOKENS,
} from '@quiver/plugin-host';
import type { Session, SessionOptions } from '@quiver/runtime';
import { codePlugin } from '@quiver/tools-code';
import { kanbanPlugin } from '@quiver/tools-kanban';
import { memoryPlugin } from '@quiver/tools-memory';
import { terminalPlugin } from '@quiver/tools-terminal';
import type { Logger } from '@quiver/types';
import { createFirstPartyBackends } from './backends.js';
import { DEFAULT_PERSONALITY } from './default-personality.js';
import { announceSandboxNotice, personalitySandboxNotice } from './sandbox-notice.js';

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
   */
  trustProject?: boolean | ProjectConfiguration;
}

export const FIRST_PARTY_PLUGINS: BuiltinPlugin[] = [
  { definition: terminalPlugin, source: '@quiver/tools-terminal' },
  { definition: codePlugin, source: '@quiver/tools-code' },
  { definition: kanbanPlugin, source: '@quiver/tools-kanban' },
  { definition: memoryPlugin, source: '@quiver/tools-memory' },
  { definition: mcpBridgePlugin, source: '@quiver/mcp-bridge' },
];

export interface Quiver {
  readonly host: QuiverHost;
  /** The config file in use, if any (undefined = embedded default or inline config). */
  readonly configFile: string | undefined;
  readonly defaultPersonality: string;
  /** How the project configuration stands against what a person trusted. */
  readonly trust: ProjectTrust;
  /** What to tell a person when part of the project configuration waits for trust; undefined when nothing does. */
  readonly trustNotice: string | undefined;
  /** Every file and directory loaded as configuration or code: no tool may write them. */
  readonly loadedConfigurationPaths: string[];
  createSession(options?: SessionOptions): Session;
  /** What to tell a person when the personality's terminal commands would run unsandboxed (`sandbox: auto` without bubblewrap). */
  sandboxNotice(personality?: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Where the configuration comes from and how trust is checked: shared by createQuiver and `quiver trust`. */
function projectOptions(options: CreateQuiverOptions): {
  configFile: string | undefined;
  project: InspectProjectOptions & Pick<CreateHostOptions, 'dataDir'>;
} {
  const start = path.resolve(options.workspace ?? process.cwd());
  const configFile =
    options.configPath ??
    (options.config || options.discoverConfig === false ? undefined : findConfigFile(start));
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

/**
 * The project configuration Quiver would load with these options, and how it stands against
 * what a person trusted, without starting anything (what `quiver trust` shows).
 */
export function inspectQuiverProject(options: CreateQuiverOptions = {}): ProjectInspection {
  return inspectProject(projectOptions(options).project);
}

/** Composes the host with every first-party extension and backend. */
export async function createQuiver(options: CreateQuiverOptions = {}): Promise<Quiver> {
  const { configFile, project } = projectOptions(options);
  const hostOptions: CreateHostOptions = {
    ...project,
    builtinPlugins: [...withUserPinStore(FIRST_PARTY_PLUGINS, options.env), ...(options.plugins ?? [])],
    backends: (context) => createFirstPartyBackends(context, options.env ?? process.env),
    ...(options.logger ? { logger: options.logger } : {}),
  };
  // The bridge starts only the servers of the top-level `mcpServers` table that the personality enables.
  let started: string[] = [];
  hostOptions.pluginConfigSources = {
    'mcp-bridge': (config, context) => {
      const servers = enabledServers(config, context.personality());
      started = Object.keys(servers);
      return servers;
    },
  };
  const host = await QuiverHost.create(hostOptions);
  const defaultPersonality = options.personality ?? host.options.config.defaultPersonality;
  const trust = host.trust as ProjectTrust;
  const warned = new Set<string>();
  const sandboxNoticeFor = (personality: string) => {
    let resolved: Personality | undefined;
    try {
      resolved = host.personality(personality);
    } catch {
      // An unknown personality fails where it is used, with its own error.
    }
    return personalitySandboxNotice(resolved);
  };
  /** Servers start for the personality Quiver was opened for; say so when a session wants others. */
  const warnAboutServers = (personality: string) => {
    if (warned.has(personality) || personality === defaultPersonality) return;
    warned.add(personality);
    const wanted = Object.keys(host.personality(personality).mcpServers);
    const missing = wanted.filter(
      (name) => Object.hasOwn(host.options.config.mcpServers, name) && !started.includes(name),
    );
    if (missing.length === 0) return;
    host.container
      .resolve<Logger>(TOKENS.logger)
      .warn(
        `MCP servers ${missing.join(', ')} of personality "${personality}" are not started: Quiver starts the servers of the personality it was opened for ("${defaultPersonality}"). Open it with personality "${personality}" to use them.`,
        { personality, servers: missing },
      );
  };
  return {
    host,
    configFile,
    defaultPersonality,
    trust,
    trustNotice: describeProjectTrust(trust),
    get loadedConfigurationPaths() {
      return host.loadedConfigurationPaths;
    },
    createSession: (sessionOptions = {}) => {
      const personality = sessionOptions.personality ?? defaultPersonality;
      const session = host.createSession({ ...sessionOptions, personality });
      warnAboutServers(personality);
      announceSandboxNotice(session, sandboxNoticeFor(personality));
      return session;
    },
    sandboxNotice: (personality = defaultPersonality) => sandboxNoticeFor(personality),
    close: () => host.close(),
  };
}

/** The bridge pins server tool definitions in the user's data directory, never the workspace's. */
function withUserPinStore(plugins: BuiltinPlugin[], env: NodeJS.ProcessEnv | undefined): BuiltinPlugin[] {
  const bridge = createMcpBridgePlugin({ pins: (paths) => openMcpToolPins(paths.workspace, env) });
  return plugins.map((plugin) =>
    plugin.definition === mcpBridgePlugin
      ? { ...plugin, definition: bridge as BuiltinPlugin['definition'] }
      : plugin,
  );
}

/** The servers the personality enables; none when it does not resolve or enables none. */
function enabledServers(config: QuiverConfig, personality: Personality | undefined): Record<string, unknown> {
  const enabled = Object.keys(personality?.mcpServers ?? {});
  return Object.fromEntries(Object.entries(config.mcpServers).filter(([name]) => enabled.includes(name)));
}
