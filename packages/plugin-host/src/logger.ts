import type { Logger } from '@quiver/types';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Writes to stderr (stdout belongs to command output and the MCP stdio transport). */
export function createStderrLogger(level: LogLevel = 'warn'): Logger {
  const write = (at: LogLevel, message: string, data?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    process.stderr.write(
      `quiver ${at}: ${message}${data && Object.keys(data).length ? ` ${JSON.stringify(data)}` : ''}\n`,
    );
  };
  return {
    debug: (message, data) => write('debug', message, data),
    info: (message, data) => write('info', message, data),
    warn: (message, data) => write('warn', message, data),
    error: (message, data) => write('error', message, data),
  };
}

/** Keeps messages in memory; for tests and for `quiver plugins`. */
export function createMemoryLogger(): Logger & { entries: Array<{ level: string; message: string }> } {
  const entries: Array<{ level: string; message: string }> = [];
  const push = (level: string) => (message: string) => void entries.push({ level, message });
  return { entries, debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}
