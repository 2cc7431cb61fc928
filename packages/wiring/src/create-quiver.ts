import 'reflect-metadata';
import path from 'node:path';
import { mcpBridgePlugin } from '@quiver/mcp-bridge';
import {
  type BuiltinPlugin,
  type CreateHostOptions,
  findConfigFile,
  type QuiverConfigInput,
  QuiverHost,
} from '@quiver/plugin-host';
import type { Session, SessionOptions } from '@quiver/runtime';
import { codePlugin } from '@quiver/tools-code';
import { kanbanPlugin } from '@quiver/tools-kanban';
import { memoryPlugin } from '@quiver/tools-memory';
import { terminalPlugin } from '@quiver/tools-terminal';
import type { Logger } from '@quiver/types';
import { createFirstPartyBackends } from './backends.js';
import { DEFAULT_PERSONALITY } from './default-personality.js';

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
  createSession(options?: SessionOptions): Session;
  close(): Promise<void>;
}

/** Composes the host with every first-party extension and backend. */
export async function createQuiver(options: CreateQuiverOptions = {}): Promise<Quiver> {
  const start = path.resolve(options.workspace ?? process.cwd());
  const configFile =
    options.configPath ??
    (options.config || options.discoverConfig === false ? undefined : findConfigFile(start));
  const hostOptions: CreateHostOptions = {
    ...(configFile
      ? { configPath: path.resolve(configFile) }
      : { config: options.config ?? {}, configDir: start }),
    ...(options.workspace
      ? { workspace: path.resolve(options.workspace) }
      : configFile
        ? {}
        : { workspace: start }),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    builtinPlugins: [...FIRST_PARTY_PLUGINS, ...(options.plugins ?? [])],
    backends: (context) => createFirstPartyBackends(context, options.env ?? process.env),
    embeddedPersonalities: { default: DEFAULT_PERSONALITY },
    // The MCP bridge reads its servers from the top-level `mcpServers` table.
    pluginConfigSources: { 'mcp-bridge': (config) => config.mcpServers },
    ...(options.logger ? { logger: options.logger } : {}),
  };
  const host = await QuiverHost.create(hostOptions);
  const defaultPersonality = options.personality ?? host.options.config.defaultPersonality;
  return {
    host,
    configFile,
    defaultPersonality,
    createSession: (sessionOptions = {}) =>
      host.createSession({
        ...sessionOptions,
        personality: sessionOptions.personality ?? defaultPersonality,
      }),
    close: () => host.close(),
  };
}
