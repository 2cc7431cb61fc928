import { CliError } from '../output.js';

/** How long an idle HTTP session lives and how many may be open at once. */
export interface SessionLimits {
  /** A session without a request (open streams count as requests) for this long is closed. */
  idleTimeoutMs: number;
  /** At this many sessions a new one closes the longest-idle; when every one is busy it is refused. */
  maxSessions: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleTimeoutMs: 30 * 60_000, maxSessions: 100 };

/** `--session-idle-timeout <seconds>` and `--max-sessions <count>`, checked with errors that say what to pass. */
export function parseSessionLimits(options: {
  sessionIdleTimeout?: string;
  maxSessions?: string;
}): SessionLimits {
  const limits = { ...DEFAULT_SESSION_LIMITS };
  if (options.sessionIdleTimeout !== undefined) {
    const seconds = Number(options.sessionIdleTimeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new CliError(
        `--session-idle-timeout must be a positive number of seconds, not "${options.sessionIdleTimeout}".`,
        'For example --session-idle-timeout 600 closes sessions idle for ten minutes.',
      );
    limits.idleTimeoutMs = Math.round(seconds * 1000);
  }
  if (options.maxSessions !== undefined) {
    const count = Number(options.maxSessions);
    if (!Number.isInteger(count) || count < 1)
      throw new CliError(
        `--max-sessions must be a whole number of at least 1, not "${options.maxSessions}".`,
        'For example --max-sessions 20.',
      );
    limits.maxSessions = count;
  }
  return limits;
}
