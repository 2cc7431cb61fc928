import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  baselineConfiguration,
  evaluateProjectTrust,
  fingerprintConfiguration,
  inspectProject,
  readTrustRecord,
  trustRecordPath,
  writeTrustRecord,
} from '../src/index.js';
import { tempDir, write } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function dirs() {
  const workspace = tempDir('quiver-trust-ws-');
  const data = tempDir('quiver-trust-xdg-');
  cleanups.push(workspace.cleanup, data.cleanup);
  return { workspace: workspace.dir, env: { XDG_DATA_HOME: data.dir }, data: data.dir };
}

const EMBEDDED = { default: { plugins: ['tools-code'], permissions: { allow: ['read_file'] } } };

describe('trust records', () => {
  it('keeps the record in the user data directory, keyed by the real workspace path', () => {
    const { workspace, env, data } = dirs();
    write(path.join(workspace, 'quiver.yaml'), 'mcpServers:\n  files: { command: files-mcp }\n');
    const inspection = inspectProject({
      configPath: path.join(workspace, 'quiver.yaml'),
      embeddedPersonalities: EMBEDDED,
    });
    const file = writeTrustRecord(workspace, inspection.configuration, { env });
    expect(file.startsWith(path.join(data, 'quiver', 'trust'))).toBe(true);
    expect(existsSync(path.join(workspace, '.quiver'))).toBe(false);

    const linkDir = tempDir('quiver-trust-link-');
    cleanups.push(linkDir.cleanup);
    const link = path.join(linkDir.dir, 'clone');
    symlinkSync(workspace, link);
    expect(trustRecordPath(link, env)).toBe(file);
    expect(readTrustRecord(link, env)?.configuration).toEqual(inspection.configuration);
  });

  it('ignores a record whose content no longer matches its fingerprint', () => {
    const { workspace, env } = dirs();
    const file = writeTrustRecord(workspace, baselineConfiguration(EMBEDDED), { env });
    const record = JSON.parse(readFileSync(file, 'utf8'));
    record.configuration.config.mcpServers.evil = { command: 'evil' };
    writeFileSync(file, JSON.stringify(record));
    expect(readTrustRecord(workspace, env)).toBeUndefined();
  });

  it('keeps a record written before fingerprints were RFC 8785 valid, and still refuses it once edited', () => {
    const { workspace, env } = dirs();
    write(
      path.join(workspace, 'quiver.yaml'),
      'mcpServers:\n  "9": { command: nine-mcp, args: ["--port", "9"] }\n  "10": { command: ten-mcp, env: { "2": two, "11": eleven } }\n  files: { command: files-mcp }\n',
    );
    const recorded = JSON.parse(
      readFileSync(new URL('./fixtures/trust-record-before-rfc8785.json', import.meta.url), 'utf8'),
    ) as { configuration: unknown; fingerprint: string };
    const { configuration } = inspectProject({
      configPath: path.join(workspace, 'quiver.yaml'),
      embeddedPersonalities: {
        default: { plugins: ['tools-code'], permissions: { allow: ['read_file'], deny: ['terminal(rm:*)'] } },
      },
    });
    expect(configuration).toEqual(recorded.configuration);
    // Server names "9" and "10" are keys RFC 8785 orders differently from the old fingerprint.
    expect(fingerprintConfiguration(configuration)).not.toBe(recorded.fingerprint);
    const file = writeTrustRecord(workspace, configuration, { env });
    const record = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...record, fingerprint: recorded.fingerprint }));
    expect(readTrustRecord(workspace, env)?.configuration).toEqual(configuration);

    record.configuration.config.mcpServers['10'].env['3'] = 'three';
    writeFileSync(file, JSON.stringify({ ...record, fingerprint: recorded.fingerprint }));
    expect(readTrustRecord(workspace, env)).toBeUndefined();
  });

  it('refuses to fingerprint a configuration JSON cannot carry exactly, saying what to fix', () => {
    const configuration = baselineConfiguration(EMBEDDED);
    configuration.config.mcpServers.odd = { command: 'odd-\ud800' } as never;
    expect(() => fingerprintConfiguration(configuration)).toThrow(
      'The project configuration cannot be fingerprinted for trust: Lone surrogate is not allowed.',
    );
  });

  it('refuses to keep records inside the workspace, where a repository could ship them', () => {
    const { workspace } = dirs();
    expect(() => trustRecordPath(workspace, { XDG_DATA_HOME: path.join(workspace, 'share') })).toThrow(
      /inside the workspace/,
    );
  });

  it('reports an untrusted project, then a trusted one, then a widening edit as changed', () => {
    const { workspace, env } = dirs();
    const configPath = path.join(workspace, 'quiver.yaml');
    write(configPath, 'mcpServers:\n  files: { command: files-mcp }\n');
    const inspect = () =>
      inspectProject({ configPath, embeddedPersonalities: EMBEDDED, trust: { env } }).trust!;
    expect(inspect()).toMatchObject({ state: 'untrusted', basis: 'baseline' });
    expect(inspect().comparison.effective.config.mcpServers).toEqual({});

    writeTrustRecord(workspace, inspect().current, { env });
    expect(inspect()).toMatchObject({ state: 'trusted', basis: 'record' });

    write(
      path.join(workspace, 'personalities/default.yaml'),
      'extends: default\npermissions:\n  deny: [read_file(.env)]\n',
    );
    expect(inspect().state).toBe('trusted');
    expect(inspect().comparison.effective.personalities.default?.permissions.deny).toEqual([
      'read_file(.env)',
    ]);

    write(configPath, 'mcpServers:\n  files: { command: files-mcp }\n  evil: { command: evil }\n');
    const changed = inspect();
    expect(changed).toMatchObject({ state: 'changed', basis: 'record' });
    expect(Object.keys(changed.comparison.effective.config.mcpServers)).toEqual(['files']);
  });

  it('trusts the configuration found at launch for that evaluation only', () => {
    const { workspace, env } = dirs();
    write(path.join(workspace, 'quiver.yaml'), 'mcpServers:\n  files: { command: files-mcp }\n');
    const inspection = inspectProject({
      configPath: path.join(workspace, 'quiver.yaml'),
      embeddedPersonalities: EMBEDDED,
    });
    const trust = evaluateProjectTrust({
      workspace,
      current: inspection.configuration,
      baseline: baselineConfiguration(EMBEDDED),
      launch: inspection.configuration,
      env,
    });
    expect(trust).toMatchObject({ state: 'trusted', basis: 'launch' });
    expect(readTrustRecord(workspace, env)).toBeUndefined();
  });

  it('needs no new trust when an upgrade changes an embedded personality the project uses as shipped', () => {
    const { workspace, env } = dirs();
    const configPath = path.join(workspace, 'quiver.yaml');
    write(configPath, 'mcpServers:\n  files: { command: files-mcp }\n');
    const before = inspectProject({ configPath, embeddedPersonalities: EMBEDDED, trust: { env } });
    writeTrustRecord(workspace, before.configuration, { env });
    const upgraded = {
      default: { plugins: ['tools-code'], permissions: { allow: ['read_file', 'list_dir'] } },
    };
    const after = inspectProject({ configPath, embeddedPersonalities: upgraded, trust: { env } }).trust!;
    expect(after).toMatchObject({ state: 'trusted', basis: 'record' });
    expect(after.comparison.effective.personalities.default?.permissions.allow).toEqual([
      'read_file',
      'list_dir',
    ]);
  });
});
