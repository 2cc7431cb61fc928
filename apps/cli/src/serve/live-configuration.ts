import { randomUUID } from 'node:crypto';
import { type Stats, unwatchFile, watchFile } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { watchSharedTrustRecord } from './shared-trust-record.js';

export interface LiveConfigurationOptions {
  /** The Quiver serving now. */
  current(): Quiver;
  /** Opens Quiver again from the files as they are now; throws when they are invalid. */
  reopen(): Promise<Quiver>;
  /** Checks that the reopened Quiver can serve (its personality assembles); throws when it cannot. */
  check(quiver: Quiver): void;
  /** Moves every connection to the reopened Quiver; the previous one is closed after. */
  switchTo(quiver: Quiver): Promise<void>;
  log(message: string): void;
  /** How often the files are polled; polling sees files replaced by rename, which watchers miss. */
  intervalMs?: number;
}

export interface LiveConfiguration {
  close(): void;
}

/** What to watch: quiver.yaml (where it is or would be), the personality files and folders, the trust record. */
function watchedFiles(quiver: Quiver): string[] {
  const { workspace, configDir } = quiver.host.options;
  const candidates = [
    ...(quiver.configFile ? [path.resolve(quiver.configFile)] : []),
    path.join(workspace, 'quiver.yaml'),
    path.join(workspace, 'quiver.yml'),
    path.join(configDir, 'personalities'),
    path.join(workspace, 'personalities'),
    ...quiver.loadedConfigurationPaths.filter((file) => /\.ya?ml$/.test(file)),
    ...(quiver.trust.recordFile ? [quiver.trust.recordFile] : []),
  ];
  return [...new Set(candidates)];
}

function fingerprint(quiver: Quiver): string {
  return JSON.stringify([quiver.trust.comparison.effective, quiver.defaultPersonality]);
}

/**
 * Watches the configuration of a running `quiver serve`. An edit is re-read: narrowing changes
 * apply at once (a new Quiver, tools/list_changed to clients), widening ones wait for
 * `quiver trust` (reported on stderr and as a warning event), and an invalid edit keeps the
 * running configuration and says what is wrong.
 */
export function watchConfiguration(options: LiveConfigurationOptions): LiveConfiguration {
  const interval = options.intervalMs ?? 300;
  let watched: string[] = [];
  let closed = false;
  let running: Promise<void> = Promise.resolve();
  let pending = false;
  let lastNotice = options.current().trustNotice;

  const onChange = (now: Stats, before: Stats) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size && now.ino === before.ino) return;
    changed();
  };
  const changed = () => {
    if (pending || closed) return;
    pending = true;
    running = running.then(async () => {
      pending = false;
      await reload();
    });
  };

  const watch = (files: string[]) => {
    for (const file of watched) unwatchFile(file, onChange);
    watched = files;
    for (const file of watched) watchFile(file, { interval, persistent: false }, onChange);
  };

  const report = (quiver: Quiver, code: string, message: string) => {
    options.log(message);
    quiver.host.events.publish({
      type: 'session.warning',
      id: randomUUID(),
      sessionId: '*',
      timestamp: Date.now(),
      code,
      message,
    });
  };

  const reload = async () => {
    if (closed) return;
    const current = options.current();
    let next: Quiver;
    try {
      next = await options.reopen();
    } catch (error) {
      report(
        current,
        'config_invalid',
        `the edited configuration was not applied, the running one stays: ${errorMessage(error)}`,
      );
      return;
    }
    try {
      options.check(next);
    } catch (error) {
      await next.close();
      report(
        current,
        'config_invalid',
        `the edited configuration was not applied, the running one stays: ${errorMessage(error)}`,
      );
      return;
    }
    if (closed) {
      await next.close();
      return;
    }
    if (next.trustNotice && next.trustNotice !== lastNotice) {
      report(next, 'config_trust_pending', next.trustNotice);
    }
    lastNotice = next.trustNotice;
    watch(watchedFiles(next));
    if (fingerprint(next) === fingerprint(current)) {
      await next.close();
      return;
    }
    await options.switchTo(next);
    recordWatch.follow(next);
    options.log('the configuration changed; the tools were reassembled');
  };

  watch(watchedFiles(options.current()));
  const recordWatch = watchSharedTrustRecord(changed);
  recordWatch.follow(options.current());
  return {
    close() {
      closed = true;
      recordWatch.stop();
      for (const file of watched) unwatchFile(file, onChange);
      watched = [];
    },
  };
}
