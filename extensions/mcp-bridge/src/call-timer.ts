/**
 * The deadlines of every running call, watched by one timer: a `setTimeout` per call (and its
 * `clearTimeout`) costs more than the rest of the bridge's bookkeeping for a cheap local call.
 * The timer is armed for the earliest deadline; a deadline moved later (progress) is found when
 * it fires, which then re-arms for what is left. It keeps the process alive only while a call runs.
 */
class CallDeadlines {
  readonly #running = new Set<CallTimer>();
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Number.POSITIVE_INFINITY;

  add(call: CallTimer): void {
    this.#running.add(call);
    if (this.#running.size === 1) this.#timer?.ref();
    this.#arm(call.deadline);
  }

  delete(call: CallTimer): void {
    this.#running.delete(call);
    if (this.#running.size === 0) this.#timer?.unref();
  }

  #arm(deadline: number): void {
    if (deadline >= this.#armedFor) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedFor = deadline;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, deadline - performance.now()));
    if (this.#running.size === 0) this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const call of [...this.#running]) {
      if (call.deadline <= now) {
        this.#running.delete(call);
        call.expire();
      } else next = Math.min(next, call.deadline);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}

const deadlines = new CallDeadlines();

/**
 * The inactivity timer of one bridged call: restarted by the server's progress, and held while
 * the server waits for an answer from the session's client (a person may take longer than the
 * server would to answer on its own). Released, it starts over: the server gets its whole
 * timeout again after the answer.
 */
export class CallTimer {
  /** When the call times out (`performance.now()` time), unless progress or a hold moves it. */
  deadline: number;
  #held = false;
  #cleared = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly onExpire: () => void,
  ) {
    this.deadline = performance.now() + timeoutMs;
    deadlines.add(this);
  }

  refresh(): void {
    if (this.#held || this.#cleared) return;
    this.deadline = performance.now() + this.timeoutMs;
  }

  hold(): void {
    if (this.#held || this.#cleared) return;
    this.#held = true;
    deadlines.delete(this);
  }

  release(): void {
    if (!this.#held || this.#cleared) return;
    this.#held = false;
    this.deadline = performance.now() + this.timeoutMs;
    deadlines.add(this);
  }

  clear(): void {
    this.#cleared = true;
    deadlines.delete(this);
  }

  /** Called by the deadlines when this one has passed. */
  expire(): void {
    if (this.#held || this.#cleared) return;
    this.#cleared = true;
    this.onExpire();
  }
}

/**
 * The requests a server has made of the session's client (elicitation, sampling) that are not
 * answered yet. While any is outstanding, the timers of the server's running calls are held: MCP
 * does not say which call a request belongs to, and a server waiting on a person is not hung.
 */
export class OutstandingClientRequests {
  #count = 0;
  readonly #timers = new Set<CallTimer>();

  /** Marks one request outstanding; call the returned function once it is answered or failed. */
  begin(): () => void {
    this.#count += 1;
    if (this.#count === 1) for (const timer of this.#timers) timer.hold();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#count -= 1;
      if (this.#count === 0) for (const timer of this.#timers) timer.release();
    };
  }

  /** Holds this call's timer whenever a request is outstanding, until `unwatch`. */
  watch(timer: CallTimer): void {
    this.#timers.add(timer);
    if (this.#count > 0) timer.hold();
  }

  unwatch(timer: CallTimer): void {
    this.#timers.delete(timer);
  }
}
