import { randomUUID } from 'node:crypto';
import type { QuiverEventOf, QuiverEventType } from '@quiver/types';

type EventFields<T extends QuiverEventType> = Omit<
  QuiverEventOf<T>,
  'id' | 'sessionId' | 'timestamp' | 'type'
>;

/** Stamps events of one session with a unique id, the session id and the time. */
export function createEventFactory(
  sessionId: string,
): <T extends QuiverEventType>(type: T, fields: EventFields<T>) => QuiverEventOf<T> {
  return (type, fields) =>
    ({ id: randomUUID(), sessionId, timestamp: Date.now(), type, ...fields }) as unknown as never;
}
