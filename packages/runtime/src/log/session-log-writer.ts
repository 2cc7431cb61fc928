import type { QuiverEvent } from '@quiver/types';
import type { SessionEventLog, WriteBehindChannel } from '../contracts.js';

/** How long a session keeps retrying a log another process holds before it gives up on those writes. */
export const LOG_BUSY_PATIENCE_MS = 2_000;
/** The longest an event waits in memory before it is written, when nothing else flushes it first. */
export const LOG_FLUSH_DELAY_MS = 200;
const FIRST_RETRY_MS = 10;
const LONGEST_RETRY_MS = 200;

export interface SessionLogWriterOptions {
  log: SessionEventLog;
  session: { id: string; personalityId?: string; agent?: string; caller?: string };
  /** A write that failed for good; the session turns it into a `session.warning`. */
  onProblem(code: 'log_busy' | 'log_write_failed', message: string): void;
  /** Calls of an earlier process of this session that orphan recovery marked interrupted. */
  onRecovered(callIds: readonly string[]): void;
  /**
   * The durable record of a gap (a `session.warning` with code `log_gap`), written with the
   * first events the log takes after it could not write: `quiver log` shows it.
   */
  gapEvent?(message: string): QuiverEvent;
  /** Said once, when the session closes, if events were lost: for a person (stderr). */
  onLossReport?(message: string): void;
}

/** The longest a call's start waits in memory before it is handed to the log (unless its batch ends first). */
const START_HANDOVER_MS = 5;

/** How long a call's start that must be on disk before its tool runs waits for the log's thread to catch up. */
const AHEAD_PATIENCE_MS = 50;

/**
 * A session's writes to the durable log, behind its calls and in order. Events wait in memory
 * and are handed to the log together, as one transaction: when the session's batch of calls ends
 * (`flush`, before the results are returned), on close, `START_HANDOVER_MS` after a call has
 * started, and at the latest `LOG_FLUSH_DELAY_MS` after the first waiting event.
 * With a log that writes on a thread of its own (`openWriteBehind`), handing over costs the calls
 * no commit, and `close` waits until everything handed over is on disk.
 *
 * A call whose start must be on disk before its tool runs (`append(event, true)`:
 * tools that run processes, reach the network or another server, and can outlive the process
 * that started them) is written on the calling thread, after the writes before it, so that a
 * process killed mid-call leaves the call `running` for orphan recovery.
 *
 * A crash loses what was not committed yet: the events waiting here and those the log's thread
 * holds, in practice the last milliseconds (the batch under way, a call started less than
 * `START_HANDOVER_MS` before, the events of the last 200 ms outside a batch).
 *
 * It never blocks the event loop on another process's lock: a write on the calling thread
 * answers busy at once, and a busy write waits on a timer (and holds the writes behind it) until
 * the log is free or the patience runs out, when it is dropped with a warning; the log's thread
 * waits out the same patience itself. Orphan recovery goes first, so that no call of this
 * process can be mistaken for an orphan.
 */
export class SessionLogWriter {
  readonly #options: SessionLogWriterOptions;
  readonly #pending: Array<() => void> = [];
  /** How many events each pending write holds, to count them if it fails. */
  readonly #counts = new WeakMap<() => void, number>();
  #waiting: QuiverEvent[] = [];
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #startTimer: ReturnType<typeof setTimeout> | undefined;
  #interrupted: readonly string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #busySince: number | undefined;
  #retryMs = FIRST_RETRY_MS;
  #gaveUp = false;
  #idle: Array<() => void> = [];
  #channel: WriteBehindChannel | undefined;
  /** The last write handed to the log's thread; writes settle in the order they were handed over. */
  #lastHandedOver = 0;
  /** Events not in the log (failed writes), not yet covered by a gap record that was written. */
  #lost = 0;
  /** Every event lost in this session, for the report at close. */
  #lostInSession = 0;
  #lossSince: number | undefined;
  #lossReason = '';
  #lossWarned = false;
  #failures = 0;
  #gapInFlight = false;
  #lastProblem: string | undefined;

  constructor(options: SessionLogWriterOptions) {
    this.#options = options;
  }

  /** Records the session and recovers its orphans; the warnings this raises go through the writer too. */
  start(): void {
    const { log, session } = this.#options;
    // Writes on the calling thread go after the log's thread has written what it holds (other
    // sessions' events), so that they do not find the log locked by this very process.
    this.#enqueue(() => {
      this.#channel?.settle(AHEAD_PATIENCE_MS);
      log.beginSession?.(session);
    });
    this.#enqueue(() => {
      const recovered = log.recoverOrphans(session.id);
      if (Array.isArray(recovered)) this.#recovered(recovered);
      // A shared log spares live replicas' calls, so this process's calls cannot be taken for
      // orphans whenever the answer comes.
      else
        recovered.then(
          (callIds) => this.#recovered(callIds),
          (error) => this.#report(error),
        );
    });
    // After recovery: the log's thread opens a connection of its own, which must not find the log
    // busy with (or busy it for) the recovery of a log a killed process left behind.
    this.#enqueue(() => {
      this.#channel = log.openWriteBehind?.((error, firstOfBusyStretch, lostEvents) => {
        this.#failures += 1;
        if (isBusy(error)) {
          this.#count(lostEvents ?? 0, error);
          if (firstOfBusyStretch) this.#report(error);
        } else this.#lose(lostEvents ?? 0, error);
      });
    });
  }

  #recovered(callIds: readonly string[]): void {
    this.#interrupted = callIds;
    if (callIds.length > 0) this.#options.onRecovered(callIds);
  }

  /** Known once recovery has run; empty before. */
  get interruptedCalls(): readonly string[] {
    return this.#interrupted;
  }

  /** `ahead`: a call's start that must be on disk before its tool runs (`startsAhead`). */
  append(event: QuiverEvent, ahead = false): void {
    this.#waiting.push(event);
    if (event.type === 'tool.execution_start') {
      if (ahead) this.#flushAhead();
      // A call that ends within this time goes over with its batch, start and completion in one
      // write (one row); one that runs longer is handed over then. Like the flush timer, it is
      // not disarmed by a flush: arming one per call would cost more than the write.
      else
        this.#startTimer ??= setTimeout(() => {
          this.#startTimer = undefined;
          this.flush();
        }, START_HANDOVER_MS);
    }
    // A flush does not disarm the timer: arming one per batch would cost more than the write.
    else
      this.#flushTimer ??= setTimeout(() => {
        this.#flushTimer = undefined;
        this.flush();
      }, LOG_FLUSH_DELAY_MS);
  }

  /** Hands the waiting events to the log as one write. */
  flush(): void {
    if (this.#waiting.length === 0) return;
    const events = this.#withGapRecord(this.#waiting);
    this.#waiting = [];
    // The usual case costs no closure: nothing is queued ahead, so the events go straight to the
    // log's thread (handing over throws only once the log has failed, never on a busy log).
    if (this.#pending.length === 0 && this.#timer === undefined && this.#channel !== undefined) {
      try {
        this.#lastHandedOver = this.#channel.write(events);
        this.#watchGapRecord(events, this.#lastHandedOver);
      } catch (error) {
        this.#lose(countOf(events), error);
      }
    } else this.#enqueue(() => this.#write(events), countOf(events));
  }

  /** With a gap record in front when events were lost and no record of them is on its way. */
  #withGapRecord(events: QuiverEvent[]): QuiverEvent[] {
    const { gapEvent } = this.#options;
    if (this.#lost === 0 || this.#gapInFlight || gapEvent === undefined) return events;
    const since = new Date(this.#lossSince ?? Date.now()).toISOString();
    const gap = gapEvent(
      `${this.#lost} event(s) of this session are missing from the log: they could not be written between ${since} and ${new Date().toISOString()} (${this.#lossReason}).`,
    );
    (gap as { lostEvents?: number }).lostEvents = this.#lost;
    return [gap, ...events];
  }

  /** Once the write that carries a gap record has settled without a failure, the lost events are accounted for. */
  #watchGapRecord(events: readonly QuiverEvent[], id: number): void {
    const carried = gapCountOf(events);
    if (carried === 0 || this.#channel === undefined) return;
    this.#gapInFlight = true;
    const failuresBefore = this.#failures;
    void this.#channel.written(id).then(() => {
      this.#gapInFlight = false;
      if (this.#failures !== failuresBefore) return;
      this.#lost = Math.max(0, this.#lost - carried);
      if (this.#lost === 0) {
        this.#lossSince = undefined;
        this.#lossWarned = false;
        this.#lastProblem = undefined;
      }
    });
  }

  /** Counts events that are not in the log; says so once per stretch of failures. */
  #lose(events: number, error: unknown): void {
    this.#count(events, error);
    if (this.#lossWarned) return;
    this.#lossWarned = true;
    this.#report(error, events);
  }

  #count(events: number, error: unknown): void {
    this.#lost += events;
    this.#lostInSession += events;
    // The first failure of a stretch says why; the ones after it follow from it.
    if (this.#lossSince === undefined) this.#lossReason = messageOf(error);
    this.#lossSince ??= Date.now();
  }

  /** Writes what is pending (within the patience) and records the session's end. */
  async close(): Promise<void> {
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#startTimer !== undefined) clearTimeout(this.#startTimer);
    this.#startTimer = undefined;
    this.flush();
    await this.#whenIdle();
    if (this.#channel !== undefined) {
      await this.#channel.written(this.#lastHandedOver);
      this.#channel.close();
    }
    this.#enqueue(() => {
      this.#channel?.settle(AHEAD_PATIENCE_MS);
      this.#options.log.endSession?.(this.#options.session.id);
    });
    await this.#whenIdle();
    if (this.#lostInSession > 0) {
      const recorded = this.#lost === 0;
      this.#options.onLossReport?.(
        `session ${this.#options.session.id}: the session log could not record ${this.#lostInSession} event(s) (${this.#lossReason}); ${
          recorded
            ? `\`quiver log --session ${this.#options.session.id}\` shows the gap.`
            : 'the log could not be written again before the session ended, so the gap is reported here only.'
        }`,
      );
    }
  }

  /**
   * Commits the waiting events on the calling thread once the log's thread has written what it
   * was handed before them. When it cannot at once (the log's thread is behind, or another
   * process holds the log), the events are handed over like any others: the call still runs.
   */
  #flushAhead(): void {
    const { log } = this.#options;
    if (this.#channel === undefined || log.appendAll === undefined || this.#pending.length > 0) {
      this.flush();
      return;
    }
    if (!this.#channel.settle(AHEAD_PATIENCE_MS)) {
      this.flush();
      return;
    }
    const events = this.#waiting;
    try {
      log.appendAll(events);
      this.#waiting = [];
    } catch {
      this.flush();
    }
  }

  #write(events: readonly QuiverEvent[]): void {
    const { log } = this.#options;
    if (this.#channel !== undefined) {
      this.#lastHandedOver = this.#channel.write(events);
      this.#watchGapRecord(events, this.#lastHandedOver);
      return;
    }
    if (log.appendAll !== undefined) log.appendAll(events);
    else for (const event of events) log.append(event);
    // Written on this thread: the gap record it carried is in the log.
    const carried = gapCountOf(events);
    if (carried > 0) this.#lost = Math.max(0, this.#lost - carried);
    if (this.#lost === 0) {
      this.#lossSince = undefined;
      this.#lossWarned = false;
      this.#lastProblem = undefined;
    }
  }

  #whenIdle(): Promise<void> {
    if (this.#pending.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  #enqueue(write: () => void, events = 0): void {
    this.#counts.set(write, events);
    this.#pending.push(write);
    if (this.#pending.length === 1 && this.#timer === undefined) this.#drain();
  }

  #drain(): void {
    this.#timer = undefined;
    while (this.#pending.length > 0) {
      const write = this.#pending[0] as () => void;
      try {
        write();
        this.#busySince = undefined;
        this.#gaveUp = false;
        this.#retryMs = FIRST_RETRY_MS;
      } catch (error) {
        const events = this.#counts.get(write) ?? 0;
        if (!isBusy(error)) {
          if (events > 0) this.#lose(events, error);
          else this.#report(error);
        } else if (this.#waitForLog()) return;
        else {
          this.#count(events, error);
          if (!this.#gaveUp) {
            // One warning per stretch of busy: the writes behind it are dropped at once, not after another wait.
            this.#gaveUp = true;
            this.#report(error);
          }
        }
      }
      this.#pending.shift();
    }
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Schedules a retry; false once the log has been busy for longer than the patience. */
  #waitForLog(): boolean {
    const now = Date.now();
    this.#busySince ??= now;
    if (this.#gaveUp || now - this.#busySince >= LOG_BUSY_PATIENCE_MS) return false;
    this.#timer = setTimeout(() => this.#drain(), this.#retryMs);
    this.#retryMs = Math.min(this.#retryMs * 2, LONGEST_RETRY_MS);
    return true;
  }

  #report(error: unknown, lostEvents?: number): void {
    const busy = isBusy(error);
    const message = busy
      ? `The session log is locked by another process; after ${LOG_BUSY_PATIENCE_MS} ms of retrying, writes are dropped until it is free (${messageOf(error)}). The calls still run.`
      : lostEvents !== undefined
        ? `The session log could not record ${lostEvents} event(s): ${messageOf(error)} The calls still run; further losses are counted, and the log records the gap once it can write again.`
        : `The session log could not record an event: ${messageOf(error)}`;
    // A log that cannot be opened fails every step the same way: say it once.
    if (message === this.#lastProblem) return;
    this.#lastProblem = message;
    try {
      this.#options.onProblem(busy ? 'log_busy' : 'log_write_failed', message);
    } catch {
      // A broken listener must not stop the writes behind this one.
    }
  }
}

/** Events a write holds, not counting gap records (they are accounted for separately). */
function countOf(events: readonly QuiverEvent[]): number {
  let count = 0;
  for (const event of events) if (!isGapRecord(event)) count += 1;
  return count;
}

function isGapRecord(event: QuiverEvent): boolean {
  return event.type === 'session.warning' && event.code === 'log_gap';
}

/** How many lost events the gap records among `events` account for. */
function gapCountOf(events: readonly QuiverEvent[]): number {
  let count = 0;
  for (const event of events)
    if (isGapRecord(event)) count += (event as { lostEvents?: number }).lostEvents ?? 0;
  return count;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

function messageOf(error: unknown): string {
  // An error that crossed from the log's thread may arrive as a plain object.
  const carried = (error as { message?: unknown } | undefined)?.message;
  const message =
    error instanceof Error
      ? error.message
      : typeof carried === 'string'
        ? carried
        : typeof error === 'object'
          ? JSON.stringify(error)
          : String(error);
  const fix = (error as { fix?: unknown } | undefined)?.fix;
  return typeof fix === 'string' ? `${message} Fix: ${fix}` : message;
}
