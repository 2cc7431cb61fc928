import type { ProgressUpdate } from './call-router.js';

/** At most this many progress emissions per call and second reach events and `serve` clients. */
export const PROGRESS_EMISSIONS_PER_SECOND = 4;

export interface ProgressThrottle {
  push(update: ProgressUpdate): void;
  /** Emits the latest update still held back; call when the call ends. */
  flush(): void;
}

/**
 * Coalesces a server's progress notifications: the first goes out at once, later ones at most
 * every interval, always the latest value. A server sending thousands a second would otherwise
 * flood the event log, `quiver call --events` and every `serve` client.
 */
export function throttleProgress(
  emit: (update: ProgressUpdate) => void,
  intervalMs = 1_000 / PROGRESS_EMISSIONS_PER_SECOND,
): ProgressThrottle {
  let lastEmitted = Number.NEGATIVE_INFINITY;
  let held: ProgressUpdate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (held === undefined) return;
    const update = held;
    held = undefined;
    lastEmitted = Date.now();
    emit(update);
  };
  return {
    push(update) {
      held = update;
      const wait = lastEmitted + intervalMs - Date.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    flush,
  };
}
