import { randomUUID } from 'node:crypto';
import type { Personality } from '@quiver/plugin-host';
import type { Session } from '@quiver/runtime';
import { PLUGIN_ID as TERMINAL_PLUGIN_ID } from '@quiver/tools-terminal/declared-tools';
import { sandboxNotice } from '@quiver/tools-terminal/host';

/** The notice for a personality whose terminal commands would run unsandboxed under `sandbox: auto`. */
export function personalitySandboxNotice(personality: Personality | undefined): Promise<string | undefined> {
  if (!personality?.plugins.includes(TERMINAL_PLUGIN_ID)) return Promise.resolve(undefined);
  return sandboxNotice(personality.sandbox);
}

/** Says it once to the session, as a `session.warning` its listeners see. */
export function announceSandboxNotice(session: Session, notice: Promise<string | undefined>): void {
  void notice.then((message) => {
    if (!message) return;
    session.events.publish({
      type: 'session.warning',
      id: randomUUID(),
      sessionId: session.id,
      timestamp: Date.now(),
      code: 'sandbox_unavailable',
      message,
    });
  });
}
