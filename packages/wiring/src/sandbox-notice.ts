import { randomUUID } from 'node:crypto';
import type { Personality } from '@quiver/plugin-host';
import type { Session } from '@quiver/runtime';
import { sandboxNotice, terminalPlugin } from '@quiver/tools-terminal';

/** The notice for a personality whose terminal commands would run unsandboxed under `sandbox: auto`. */
export function personalitySandboxNotice(personality: Personality | undefined): Promise<string | undefined> {
  if (!personality?.plugins.includes(terminalPlugin.id)) return Promise.resolve(undefined);
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
