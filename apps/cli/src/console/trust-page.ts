import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { visibleText } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { openTrustReview, TRUST_RECORD_INSIDE_WORKSPACE, type TrustReview } from '../commands/trust.js';
import { launchEnvironment } from '../launch/launch-environment.js';
import type { ConsoleTrust } from './wire.js';

export type { ConsoleTrust } from './wire.js';

/** The project this console's server loaded, as `quiver trust` would show it (compared with the record). */
async function openReview(quiver: Quiver): Promise<TrustReview> {
  return openTrustReview({
    workspace: quiver.host.options.workspace,
    ...(quiver.configFile ? { configPath: quiver.configFile } : {}),
    env: launchEnvironment() as NodeJS.ProcessEnv,
  });
}

function pageOf(review: TrustReview): ConsoleTrust {
  const { inspection, code } = review;
  const trust = inspection.trust;
  const sources = [
    ...(inspection.configFile ? [inspection.configFile] : []),
    ...Object.values(inspection.personalitySources).flat(),
  ];
  const files = [...new Set(sources)].map((file) => ({ path: file, sha256: fileHash(file) }));
  const nothing = trust?.basis === 'baseline' && trust.state === 'trusted';
  const shown = {
    workspace: visibleText(inspection.workspace),
    configFile: inspection.configFile ? visibleText(inspection.configFile) : null,
    state: trust?.state ?? 'untrusted',
    recordFile: trust?.recordFile ? visibleText(trust.recordFile) : null,
    description: review.description.map((line) => visibleText(line)),
    files: files.map((file) => ({ path: visibleText(file.path), sha256: file.sha256 })),
    code: review.pinned.map((entry) => ({
      ...entry,
      name: visibleText(entry.name),
      location: entry.location === null ? null : visibleText(entry.location),
    })),
    changes: (trust?.comparison.changes ?? []).map((change) => ({
      kind: change.kind,
      where: visibleText(change.where.replace(/: $/, '')),
      description: visibleText(change.description),
    })),
    warnings: inspection.errors.map((error) => visibleText(error.message.split('\n')[0] ?? '')),
    ...(nothing
      ? {
          cannotTrust: `Nothing to trust: ${visibleText(inspection.workspace)} has no project configuration beyond Quiver's own.`,
        }
      : trust?.recordFile === undefined
        ? { cannotTrust: TRUST_RECORD_INSIDE_WORKSPACE }
        : {}),
  };
  // Bound to what was shown and to what trusting records (the configuration and every pinned file).
  const hash = createHash('sha256')
    .update(JSON.stringify({ shown, configuration: inspection.configuration, code }))
    .digest('hex');
  return { ...shown, hash };
}

function fileHash(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'unreadable';
  }
}

/** The trust page: what `quiver trust` would show for the project this server loaded. */
export async function trustPage(quiver: Quiver): Promise<ConsoleTrust> {
  const review = await openReview(quiver);
  try {
    return pageOf(review);
  } finally {
    await review.trustStorage.close();
  }
}

/**
 * Trusts what the page showed: the configuration whose hash it sends back, read again now. A
 * change in between (the configuration, a personality, pinned code) is refused: the page shows
 * the new one. Undefined when trusted; otherwise why not.
 */
export async function trustFromPage(quiver: Quiver, body: unknown): Promise<string | undefined> {
  const { hash } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof hash !== 'string') return 'send the hash of the configuration the page showed';
  const review = await openReview(quiver);
  try {
    const now = pageOf(review);
    if (now.cannotTrust) return now.cannotTrust;
    if (now.hash !== hash)
      return 'the configuration changed since the page showed it; nothing was trusted: look at it again';
    await review.trustStorage.writeRecord(review.inspection.configuration, {
      configFile: review.inspection.configFile,
      code: review.code,
    });
    return undefined;
  } finally {
    await review.trustStorage.close();
  }
}
