import {
  type CallExecutor,
  type CallExecutorOptions,
  createCallExecutor,
  openSessionLogWriter,
  type SessionLogWriter,
} from '@quiver/runtime';
import type { Logger } from '@quiver/types';

/**
 * One session's call executors (a new one when the session's permissions change) and the one
 * log writer they all write through: the session scope owns the writer, so calls a killed
 * process left are recovered once per session and the writer closes when the session ends.
 */
export class SessionCallExecutors {
  #current: CallExecutor | undefined;
  #writer: SessionLogWriter | undefined;
  readonly #logger: Logger | undefined;

  constructor(logger?: Logger) {
    this.#logger = logger;
  }

  /** The executor the session runs calls through; undefined before its first call. */
  get current(): CallExecutor | undefined {
    return this.#current;
  }

  create(options: CallExecutorOptions): CallExecutor {
    const logger = this.#logger;
    if (options.log !== undefined)
      this.#writer ??= openSessionLogWriter({
        ...options,
        log: options.log,
        ...(logger ? { reportLoss: (message: string) => logger.warn(message) } : {}),
      });
    this.#current = createCallExecutor(this.#writer ? { ...options, logWriter: this.#writer } : options);
    return this.#current;
  }

  /** Ends the session's log writer after its executors are done (the session closes them first). */
  async close(): Promise<void> {
    await this.#current?.dispose();
    await this.#writer?.close();
  }
}
