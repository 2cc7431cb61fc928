import { isDeepStrictEqual } from 'node:util';
import type { Personality } from '../personality/index.js';
import type { CodePins } from './code-pins.js';
import {
  type ConfigurationComparison,
  compareConfigurations,
  narrowPersonality,
} from './compare-configurations.js';
import { printable } from './printable.js';
import { type ProjectConfiguration, personalityKey, personalitySettings } from './project-configuration.js';
import type { TrustStorage } from './trust-storage.js';
import { readTrustRecord, type TrustRecord, trustRecordPath } from './trust-store.js';

/**
 * - `trusted`: nothing waits for a person (the configuration, or its narrowing edits, are trusted).
 * - `untrusted`: never trusted; only its narrowing rules apply.
 * - `changed`: trusted once; widening edits since then wait for `quiver trust`.
 */
export type ProjectTrustState = 'trusted' | 'untrusted' | 'changed';

export interface ProjectTrust {
  state: ProjectTrustState;
  /** What the current configuration was compared with. */
  basis: 'launch' | 'record' | 'baseline';
  workspace: string;
  /** The configuration found on disk now. */
  current: ProjectConfiguration;
  /** The configuration it was compared with. */
  trusted: ProjectConfiguration;
  comparison: ConfigurationComparison;
  /** Where the trust record of this workspace lives (a file, or a PostgreSQL table); undefined when records cannot be kept. */
  recordFile: string | undefined;
  /**
   * The code pins in force: pinned at launch (basis `launch`), or the record's (none pinned for a
   * record written before Quiver pinned code). Undefined for the baseline, which starts no code
   * of the project's.
   */
  code: CodePins | undefined;
}

export interface EvaluateProjectTrustOptions {
  /** The workspace the record is keyed by. */
  workspace: string;
  current: ProjectConfiguration;
  /** What runs without any project configuration: the embedded personalities, the embedder's config. */
  baseline: ProjectConfiguration;
  /** The configuration a person trusted for this process (`--trust-project`, `trustProject: true`). */
  launch?: ProjectConfiguration | undefined;
  /**
   * The code the launch trusts: pins taken when the process started, or a function that takes
   * them now (given the record's pins, to hash only files whose stat changed).
   */
  launchCode?: CodePins | ((recorded: CodePins | undefined) => CodePins) | undefined;
  env?: NodeJS.ProcessEnv;
  /** Where the record is read from; default the record file of the workspace. */
  records?: Pick<TrustStorage, 'record' | 'recordLocation'> | undefined;
}

/**
 * Compares the current configuration with what is trusted: the launch configuration, the trust
 * record, or the baseline, the first that the current one does not widen; else the closest
 * trusted one, so that the narrowing edits still apply.
 */
export function evaluateProjectTrust(options: EvaluateProjectTrustOptions): ProjectTrust {
  let recordFile: string | undefined;
  let record: TrustRecord | undefined;
  if (options.records) {
    recordFile = options.records.recordLocation;
    record = options.records.record();
  } else {
    try {
      recordFile = trustRecordPath(options.workspace, options.env);
    } catch {
      // A trust directory inside the workspace is never read; trust then comes only from the launch.
    }
    record = recordFile === undefined ? undefined : readTrustRecord(options.workspace, options.env);
  }
  const candidates: Array<{ basis: ProjectTrust['basis']; configuration: ProjectConfiguration }> = [];
  if (options.launch) candidates.push({ basis: 'launch', configuration: options.launch });
  if (record) candidates.push({ basis: 'record', configuration: record.configuration });
  candidates.push({ basis: 'baseline', configuration: options.baseline });
  const compared = candidates.map((candidate) => {
    const configuration = withEmbedded(candidate.configuration, options);
    return { ...candidate, configuration, comparison: compareConfigurations(configuration, options.current) };
  });
  const chosen = compared.find((entry) => entry.comparison.widening.length === 0) ?? compared[0]!;
  const state: ProjectTrustState =
    chosen.comparison.widening.length === 0
      ? 'trusted'
      : chosen.basis === 'baseline'
        ? 'untrusted'
        : 'changed';
  const code =
    chosen.basis === 'launch'
      ? typeof options.launchCode === 'function'
        ? options.launchCode(record?.code)
        : options.launchCode
      : chosen.basis === 'record'
        ? (record?.code ?? { plugins: {}, servers: {}, files: {} })
        : undefined;
  return {
    state,
    basis: chosen.basis,
    workspace: options.workspace,
    current: options.current,
    trusted: chosen.configuration,
    comparison: chosen.comparison,
    recordFile,
    code,
  };
}

/**
 * Embedded personalities need no trust: where the current configuration uses one as shipped,
 * it is compared with itself, so that a Quiver upgrade that changes it asks no one.
 */
function withEmbedded(
  configuration: ProjectConfiguration,
  options: EvaluateProjectTrustOptions,
): ProjectConfiguration {
  const personalities = { ...configuration.personalities };
  for (const [key, shipped] of Object.entries(options.baseline.personalities)) {
    if (isDeepStrictEqual(options.current.personalities[key], shipped)) personalities[key] = shipped;
  }
  return { ...configuration, personalities };
}

const LISTED_CHANGES = 12;

/** What a person should read on stderr when something waits for trust; undefined when nothing does. */
export function describeProjectTrust(trust: ProjectTrust): string | undefined {
  if (trust.state === 'trusted') return undefined;
  const { widening } = trust.comparison;
  const lines = widening
    .slice(0, LISTED_CHANGES)
    .map(
      (change) =>
        `  - ${change.where.replace(/: $/, '')}${change.where.endsWith(': ') ? ' ' : ': '}${change.description}`,
    );
  if (widening.length > LISTED_CHANGES) lines.push(`  - … and ${widening.length - LISTED_CHANGES} more`);
  const workspace = printable(trust.workspace);
  const head =
    trust.state === 'untrusted'
      ? `The project configuration in ${workspace} is not trusted: it starts no MCP servers or plugins of its own and only its narrowing rules apply. Not applied:`
      : `The project configuration in ${workspace} changed since it was trusted; the narrowing changes apply, these wait for trust:`;
  return `${head}\n${lines.join('\n')}\nReview and trust it with \`quiver trust\`, or launch with --trust-project to trust it for that run.`;
}

/** A personality as found, with only what trust allows: its narrowing edits, never its widening ones. */
export function trustedPersonality(trust: ProjectTrust, reference: string, found: Personality): Personality {
  const known = trust.trusted.personalities[personalityKey(reference)];
  return { ...narrowPersonality(known, personalitySettings(found)), sources: found.sources };
}
