import { Worker } from 'node:worker_threads';
import type { QuiverEvent } from '@quiver/types';
import { TRANSIENT_EVENT_TYPES } from '@quiver/types';
import type { WriteBehindChannel, WriteBehindFailure } from '../contracts.js';
import type { SqliteBackend } from '../storage/sqlite-backend.js';
import { eventRowStatements } from './event-rows.js';
import {
  LOG_WAL_CHECKPOINT_PAGES,
  type LogCloseRequest,
  type LogThreadReport,
  type LogWriteBatch,
  type LogWriteRequest,
  type LogWriterThreadData,
  logWriterThread,
} from './log-writer-thread.js';

/** How long the thread has nothing to do before the process may end without waiting for it. */
const IDLE_MS = 20;
/**
 * How long a write waits on this side before it is posted: the writes of that time wake the
 * thread once and go into one transaction. Waking a thread per call (a client calling cheap tools
 * one after another) cost more than the call itself on a loaded machine; at 20 ms rather than 5
 * a gateway's warm calls (~0.4 ms each) share a wake-up and a commit 4× as many to one
 * (serve's CPU per bridged call −25 µs together with the writer's checkpoint size, A/B).
 */
const HANDOVER_MS = 20;
/** Writes that are posted without waiting for `HANDOVER_MS`: calls run back to back without yielding to timers. */
const HANDOVER_WRITES = 128;

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeout?: number,
) => { async: boolean; value: Promise<unknown> | unknown };

/**
 * The calling thread's side of the log's writer thread. `write` hands the events over; they are
 * serialised and posted to the thread within `HANDOVER_MS`, at once when someone waits for
 * them (`written`, `settleAll`, `close`). Nothing comes back per write: the thread publishes how
 * far it has got in shared memory, and sends a message only when a write failed (to the channel
 * that wrote it) or when it has been idle for a while. The thread starts with the first channel.
 * While it has work, it keeps the process alive, so a process that ends by running out of work
 * still writes what it handed over; one that exits or is killed loses what the thread has not
 * committed yet (and what waits here to be posted).
 */
export class BackgroundLogWriter {
  readonly #data: LogWriterThreadData;
  readonly #sqlite: SqliteBackend;
  readonly #settled: Int32Array;
  readonly #channels = new Map<number, WriteBehindFailure>();
  #nextChannel = 1;
  #worker: Worker | undefined;
  /** Writes handed over and not yet posted to the thread, in order. */
  #unposted: Array<{ id: number; channel: number; events: readonly QuiverEvent[] }> = [];
  #postTimer: ReturnType<typeof setTimeout> | undefined;
  /** Writes handed over and perhaps not settled yet: what a thread that dies takes with it. */
  #unsettled: Array<{ id: number; channel: number; events: number }> = [];
  #failure: Error | undefined;
  #lastId = 0;
  #idleAt = 0;
  #waiters = 0;
  #referenced = false;
  #closed = false;

  constructor(options: { path: string; patienceMs: number; sqlite: SqliteBackend }) {
    this.#sqlite = options.sqlite;
    const settled = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    this.#settled = new Int32Array(settled);
    this.#data = {
      path: options.path,
      sqliteModule: options.sqlite.driverModule,
      transientTypes: [...TRANSIENT_EVENT_TYPES],
      patienceMs: options.patienceMs,
      settled,
      idleMs: IDLE_MS,
      walCheckpointPages: LOG_WAL_CHECKPOINT_PAGES,
    };
  }

  /** A session's channel: the failures of its writes are reported to it. */
  open(onFailure: WriteBehindFailure): WriteBehindChannel {
    const channel = this.#nextChannel++;
    this.#channels.set(channel, onFailure);
    // The thread takes tens of milliseconds to start: have it ready before the session's first write.
    if (!this.#closed && this.#failure === undefined) this.#start();
    return {
      write: (events) => this.#write(channel, events),
      written: (id) => this.#written(id),
      settle: (timeoutMs) => this.settleAll(timeoutMs),
      close: () => this.#channels.delete(channel),
    };
  }

  #write(channel: number, events: readonly QuiverEvent[]): number {
    if (this.#closed) throw new Error('The session log is closed.');
    if (this.#failure !== undefined) throw this.#failure;
    this.#start();
    const id = ++this.#lastId;
    const settled = Atomics.load(this.#settled, 0);
    while (this.#unsettled.length > 0 && (this.#unsettled[0] as { id: number }).id <= settled)
      this.#unsettled.shift();
    let counted = 0;
    for (const event of events)
      if (!(event.type === 'session.warning' && event.code === 'log_gap')) counted += 1;
    this.#unsettled.push({ id, channel, events: counted });
    // Serialised when posted, off the path of the calls that wrote them: events are not changed
    // once published.
    this.#unposted.push({ id, channel, events });
    if (this.#unposted.length >= HANDOVER_WRITES) this.#post();
    else this.#postTimer ??= setTimeout(() => this.#post(), HANDOVER_MS);
    if (!this.#referenced) this.#reference();
    return id;
  }

  /** Posts the writes waiting on this side. */
  #post(): void {
    if (this.#postTimer !== undefined) clearTimeout(this.#postTimer);
    this.#postTimer = undefined;
    const writes = this.#unposted;
    if (writes.length === 0) return;
    this.#unposted = [];
    // One message for them all: it wakes the thread once, and it writes them in one transaction.
    const requests: LogWriteRequest[] = [];
    for (const { id, channel, events } of writes) {
      let text = '[';
      const ends: number[] = [];
      try {
        for (const event of events) {
          const json: unknown = JSON.stringify(event);
          if (typeof json !== 'string')
            throw new TypeError(`An event of type ${event.type} has no JSON form.`);
          if (ends.length > 0) text += ',';
          text += json;
          ends.push(text.length);
        }
        text += ']';
      } catch (error) {
        // Its id still goes over, so that whoever waits for it is not kept waiting.
        text = '[]';
        ends.length = 0;
        this.#channels.get(channel)?.(asError(error), false, events.length);
      }
      requests.push({ id, channel, events: text, ends });
    }
    this.#worker?.postMessage({ writes: requests } satisfies LogWriteBatch);
  }

  async #written(id: number): Promise<void> {
    if (Atomics.load(this.#settled, 0) >= id || this.#worker === undefined) return;
    this.#post();
    this.#waiters += 1;
    this.#reference();
    const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
    try {
      for (;;) {
        const settled = Atomics.load(this.#settled, 0);
        if (settled >= id || this.#failure !== undefined) break;
        const wait = waitAsync(this.#settled, 0, settled, 100);
        if (wait.async) await wait.value;
      }
      // A failure is posted before the progress that includes it: let its message arrive.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      this.#waiters -= 1;
      this.#reference();
    }
  }

  /** Blocks, for at most `timeoutMs`, until every write handed over so far has settled. */
  settleAll(timeoutMs: number): boolean {
    return this.#settle(this.#lastId, timeoutMs);
  }

  #settle(id: number, timeoutMs: number): boolean {
    if (Atomics.load(this.#settled, 0) < id) this.#post();
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const settled = Atomics.load(this.#settled, 0);
      if (settled >= id) return true;
      const left = deadline - performance.now();
      if (left <= 0 || this.#failure !== undefined || this.#worker === undefined) return false;
      Atomics.wait(this.#settled, 0, settled, left);
    }
  }

  /** No writes after this; the thread writes what it holds, then ends. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#post();
    this.#worker?.postMessage({ close: true } satisfies LogCloseRequest);
  }

  #start(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const source = `(${logWriterThread.toString()})(${eventRowStatements.toString()});`;
    const worker = new Worker(source, { eval: true, workerData: this.#data });
    worker.unref();
    worker.on('message', (report: LogThreadReport) => this.#receive(report));
    worker.on('error', (error) => this.#fail(this.#named(asError(error))));
    worker.on('exit', (code) => {
      if (!this.#closed || Atomics.load(this.#settled, 0) < this.#lastId)
        this.#fail(new Error(`The session log's writer thread ended unexpectedly (exit code ${code}).`));
    });
    this.#worker = worker;
    return worker;
  }

  /** Keeps the process alive while the thread has work or someone waits for it. */
  #reference(): void {
    const busy = this.#failure === undefined && (this.#waiters > 0 || this.#lastId > this.#idleAt);
    if (busy === this.#referenced) return;
    this.#referenced = busy;
    if (busy) this.#worker?.ref();
    else this.#worker?.unref();
  }

  #receive(report: LogThreadReport): void {
    if ('idle' in report) {
      this.#idleAt = report.idle;
      this.#reference();
      return;
    }
    const { failed } = report;
    const raw = Object.assign(
      new Error(failed.message),
      failed.code === undefined ? {} : { code: failed.code },
    );
    const error = this.#named(raw);
    failed.channels.forEach((channel, index) => {
      this.#channels.get(channel)?.(error, failed.firstOfStretch, failed.lost[index]);
    });
  }

  /** A full disk, a read-only or damaged file: the message names the log and the fix. */
  #named(error: Error & { code?: string }): Error {
    const described = this.#sqlite.describeStoreFault(error, this.#data.path, 'writing to the session log');
    if (described === undefined) return error;
    return Object.assign(new Error(`${described.message} Fix: ${described.fix}`), { code: error.code });
  }

  /** The thread is gone: what it held is lost, and later writes fail with the same error. */
  #fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#reference();
    const settled = Atomics.load(this.#settled, 0);
    if (this.#lastId <= settled) return;
    const lost = new Map<number, number>();
    for (const write of this.#unsettled)
      if (write.id > settled) lost.set(write.channel, (lost.get(write.channel) ?? 0) + write.events);
    this.#unsettled = [];
    for (const [channel, onFailure] of this.#channels) onFailure(error, false, lost.get(channel) ?? 0);
  }
}

/** What came over from the thread may be a plain object (errors of classes of its own do not cross whole). */
function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const text =
    typeof message === 'string'
      ? message
      : `The session log's writer thread failed (${String(code ?? error)}).`;
  return Object.assign(new Error(text), typeof code === 'string' ? { code } : {});
}
