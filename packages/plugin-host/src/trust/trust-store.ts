import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorMessage, QuiverError } from '@quiver/types';
import canonicalize from 'canonicalize';
import { type CodePins, pinTrustedCode } from './code-pins.js';
import type { FilePins } from './file-pins.js';
import type { ProjectConfiguration } from './project-configuration.js';

/** What `quiver trust` keeps: the configuration a person accepted, to diff later edits against. */
export interface TrustRecord {
  version: 1;
  /** The workspace's real path: the key of the record. */
  workspace: string;
  configFile?: string;
  fingerprint: string;
  trustedAt: string;
  configuration: ProjectConfiguration;
  /**
   * The code it starts (plugins, stdio servers, the workspace files they load) and workspace files
   * allowed programs read: absent in a record written before Quiver pinned code, which then
   * starts none of it until trusted again.
   */
  code?: CodePins;
}

/**
 * The configuration's RFC 8785 canonical JSON (keys sorted). A value JSON cannot carry exactly
 * (NaN, an infinite number, a lone surrogate in a string) is a configuration error.
 */
function canonicalConfiguration(configuration: ProjectConfiguration): string {
  try {
    return canonicalize(configuration) ?? 'null';
  } catch (error) {
    throw new QuiverError(
      'config_invalid',
      `The project configuration cannot be fingerprinted for trust: ${errorMessage(error)}.`,
      {
        fix: 'Write every number as a finite number and every string as valid Unicode text in quiver.yaml and the personality files.',
      },
    );
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** sha256 of the configuration's canonical JSON: equal settings give equal fingerprints. */
export function fingerprintConfiguration(configuration: ProjectConfiguration): string {
  return sha256(canonicalConfiguration(configuration));
}

/**
 * Whether a record's fingerprint is its configuration's. Records written before fingerprints were
 * RFC 8785 hashed the same canonical form as `JSON.stringify` writes it, which differs only where
 * a key is an array index (JavaScript puts "9" before "10"): they stay valid. A record whose
 * configuration cannot be fingerprinted was not written by Quiver and trusts nothing. The
 * PostgreSQL trust storage reads its records with this too.
 */
export function fingerprintMatches(record: TrustRecord): boolean {
  try {
    const canonical = canonicalConfiguration(record.configuration);
    return (
      record.fingerprint === sha256(canonical) ||
      record.fingerprint === sha256(JSON.stringify(JSON.parse(canonical)))
    );
  } catch {
    return false;
  }
}

/**
 * `$XDG_DATA_HOME/quiver/trust`, else `~/.local/share/quiver/trust`: the user's, never the
 * workspace's, so a repository cannot ship its own trust. A relative XDG_DATA_HOME is ignored,
 * as the XDG spec says.
 */
export function trustDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(base, 'quiver', 'trust');
}

export function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return path.resolve(workspace);
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The record file of a workspace; refuses a trust directory inside the workspace. */
export function trustRecordPath(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return workspaceRecordPath(trustDirectory(env), workspace);
}

/**
 * The file of `workspace` (keyed by its real path) in a directory of the user's; refuses a
 * directory inside the workspace, where a repository could ship its own records.
 */
export function workspaceRecordPath(directory: string, workspace: string): string {
  const real = realWorkspace(workspace);
  let realDirectory = directory;
  try {
    realDirectory = realpathSync(directory);
  } catch {}
  if (isInside(directory, real) || isInside(realDirectory, real)) {
    throw new QuiverError(
      'config_invalid',
      `The trust directory ${directory} is inside the workspace ${real}, where a repository could ship its own trust records.`,
      { fix: 'Point XDG_DATA_HOME (or HOME) at a directory outside the workspace.', details: { directory } },
    );
  }
  const key = createHash('sha256').update(real).digest('hex').slice(0, 32);
  return path.join(directory, `${key}.json`);
}

/** The record of a workspace; undefined when there is none or it cannot be read (fail closed). */
export function readTrustRecord(
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): TrustRecord | undefined {
  let record: TrustRecord;
  try {
    record = JSON.parse(readFileSync(trustRecordPath(workspace, env), 'utf8')) as TrustRecord;
  } catch {
    return undefined;
  }
  const valid =
    record?.version === 1 &&
    record.workspace === realWorkspace(workspace) &&
    typeof record.configuration === 'object' &&
    record.configuration !== null &&
    fingerprintMatches(record);
  return valid ? record : undefined;
}

/**
 * Records `configuration` as trusted for `workspace`, with the code it starts pinned as it is
 * now unless `code` gives the pins a person was shown; returns the record file.
 */
export function writeTrustRecord(
  workspace: string,
  configuration: ProjectConfiguration,
  options: { env?: NodeJS.ProcessEnv; configFile?: string | undefined; code?: CodePins | undefined } = {},
): string {
  const file = trustRecordPath(workspace, options.env);
  const record: TrustRecord = {
    version: 1,
    workspace: realWorkspace(workspace),
    ...(options.configFile ? { configFile: options.configFile } : {}),
    fingerprint: fingerprintConfiguration(configuration),
    trustedAt: new Date().toISOString(),
    configuration,
    code:
      options.code ??
      pinTrustedCode(configuration.config, {
        workspace,
        configFile: options.configFile,
        cache: readTrustRecord(workspace, options.env)?.code,
      }),
  };
  return saveRecord(file, record);
}

/**
 * Adds workspace file pins to the record, keeping what it trusts and when; false when there is
 * no record to add them to.
 */
export function addTrustRecordFiles(
  workspace: string,
  files: FilePins,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const record = readTrustRecord(workspace, env);
  if (record === undefined) return false;
  const code = record.code ?? { plugins: {}, servers: {}, files: {} };
  saveRecord(trustRecordPath(workspace, env), {
    ...record,
    code: { ...code, files: { ...code.files, ...files } },
  });
  return true;
}

function saveRecord(file: string, record: TrustRecord): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
  return file;
}
