/**
 * The inactivity timer of one bridged call: restarted by the server's progress, and held while
 * the server waits for an answer from the session's client (a person may take longer than the
 * server would to answer on its own). Released, it starts over: the server gets its whole
 * timeout again after the answer.
 */
export class CallTimer {
  #timer: NodeJS.Timeout | undefined;
  #held = false;
  #cleared = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly onExpire: () => void,
  ) {
    this.#timer = setTimeout(onExpire, timeoutMs);
  }

  refresh(): void {
    this.#timer?.refresh();
  }

  hold(): void {
    if (this.#held || this.#cleared) return;
    this.#held = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  release(): void {
    if (!this.#held || this.#cleared) return;
    this.#held = false;
    this.#timer = setTimeout(this.onExpire, this.timeoutMs);
  }

  clear(): void {
    this.#cleared = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
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
