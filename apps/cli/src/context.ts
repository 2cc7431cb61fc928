import path from 'node:path';
import { createQuiver, type Quiver } from '@quiver/wiring';
import { createStderrLogger, type LogLevel } from '@quiver/plugin-host';

export interface GlobalOptions {
  config?: string;
  workspace?: string;
  dataDir?: string;
  logLevel?: LogLevel;
}

/** Opens Quiver the way every command does: quiver.yaml from the cwd upward, else the embedded default. */
export async function openQuiver(global: GlobalOptions, extra: { personality?: string } = {}): Promise<Quiver> {
  return createQuiver({
    ...(global.workspace ? { workspace: path.resolve(global.workspace) } : {}),
    ...(global.config ? { configPath: path.resolve(global.config) } : {}),
    ...(global.dataDir ? { dataDir: path.resolve(global.dataDir) } : {}),
    ...(extra.personality ? { personality: extra.personality } : {}),
    logger: createStderrLogger(global.logLevel ?? (process.env.QUIVER_LOG_LEVEL as LogLevel | undefined) ?? 'warn'),
  });
}
