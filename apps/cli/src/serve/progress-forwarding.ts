import type { EventBus, QuiverEvent } from '@quiver/types';

export interface ProgressNotice {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Turns a running call's progress and partial-result events into MCP progress notices.
 * MCP requires progress to increase with every notification, so a partial result, which has
 * no number of its own, is sent one step past the last value.
 */
export class ProgressForwarding {
  readonly #calls = new Map<
    string,
    { send: (notice: ProgressNotice) => Promise<void>; last: number; pending: Set<Promise<void>> }
  >();
  readonly #unsubscribe: () => void;

  constructor(events: EventBus) {
    this.#unsubscribe = events.subscribe(
      (event) => this.#forward(event),
      ['tool.execution_progress', 'tool.execution_partial_result'],
    );
  }

  /**
   * Forwards the call's notices until the returned function is called. That function waits
   * for events still queued and notices still being written, so that none arrives after the
   * response (a client drops progress for a request it has answered).
   */
  track(callId: string, send: (notice: ProgressNotice) => Promise<void>): () => Promise<void> {
    const pending = new Set<Promise<void>>();
    this.#calls.set(callId, { send, last: 0, pending });
    return async () => {
      // Bus listeners run on microtasks; one macrotask later every event published so far is in.
      await new Promise((resolve) => setImmediate(resolve));
      this.#calls.delete(callId);
      await Promise.allSettled([...pending]);
    };
  }

  close(): void {
    this.#unsubscribe();
    this.#calls.clear();
  }

  #forward(event: QuiverEvent): void {
    if (event.type !== 'tool.execution_progress' && event.type !== 'tool.execution_partial_result') return;
    const call = this.#calls.get(event.callId);
    if (!call) return;
    if (event.type === 'tool.execution_progress') {
      call.last = Math.max(call.last, event.progress);
      this.#send(call, {
        progress: event.progress,
        ...(event.total !== undefined ? { total: event.total } : {}),
        ...(event.message !== undefined ? { message: event.message } : {}),
      });
      return;
    }
    call.last += 1;
    this.#send(call, { progress: call.last, message: event.text });
  }

  #send(
    call: { send: (notice: ProgressNotice) => Promise<void>; pending: Set<Promise<void>> },
    notice: ProgressNotice,
  ): void {
    const sending = call.send(notice).finally(() => call.pending.delete(sending));
    call.pending.add(sending);
  }
}
