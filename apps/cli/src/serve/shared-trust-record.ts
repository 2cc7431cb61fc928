import type { Quiver } from '@quiver/wiring';

export interface SharedTrustRecordWatch {
  /** Watches the trust record of this Quiver's host instead of the previous one's. */
  follow(quiver: Quiver): void;
  stop(): void;
}

/**
 * A trust record kept in PostgreSQL is not a file to poll: its storage says when another
 * replica (or `quiver trust`) changed it. With the user's files this watches nothing; the record
 * file is watched with the configuration files.
 */
export function watchSharedTrustRecord(onChange: () => void): SharedTrustRecordWatch {
  let stop = () => {};
  return {
    follow(quiver) {
      stop();
      stop = quiver.host.trustStorage.watchRecord?.(onChange) ?? (() => {});
    },
    stop: () => stop(),
  };
}
