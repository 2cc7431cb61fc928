import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSharedDatabase } from '@quiver/test-storage/postgres';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  baselineConfiguration,
  fileTrustStorage,
  QuiverHost,
  SharedTrustStorage,
  TRUST_MIGRATIONS,
  TrustedWorkspaceFiles,
  writeTrustRecord,
} from '../src/index.js';
import { pinFile } from '../src/trust/file-pins.js';
import { tempDir, write } from './helpers.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function directory(): string {
  const { dir, cleanup } = tempDir('quiver-file-pins-');
  cleanups.push(cleanup);
  return dir;
}

function project() {
  const workspace = directory();
  const env = { XDG_DATA_HOME: directory() };
  write(path.join(workspace, 'package.json'), '{"scripts":{"test":"vitest"}}\n');
  return {
    workspace,
    env,
    packageJson: path.join(workspace, 'package.json'),
    npmrc: path.join(workspace, '.npmrc'),
  };
}

describe('workspace file pins kept in the trust record', () => {
  it('answers pinned, changed and unpinned, with an absent file pinned as absent', async () => {
    const { workspace, env, packageJson, npmrc } = project();
    writeTrustRecord(workspace, baselineConfiguration({}), { env });
    const pins = new TrustedWorkspaceFiles({ storage: fileTrustStorage(workspace, env) });
    // Trusting pinned what allowed programs read as configuration; other files wait for a grant.
    expect(pins.state(packageJson)).toBe('pinned');
    expect(pins.state(npmrc)).toBe('unpinned');

    await pins.pin([packageJson, npmrc]);
    // Kept in the record: a later process (a new launch) reads the same pins.
    const later = new TrustedWorkspaceFiles({ storage: fileTrustStorage(workspace, env) });
    expect(later.state(packageJson)).toBe('pinned');
    expect(later.state(npmrc)).toBe('pinned');

    appendFileSync(packageJson, '\n');
    write(npmrc, 'registry=https://registry.example\n');
    expect(later.state(packageJson)).toBe('changed');
    expect(later.state(npmrc)).toBe('changed');
    rmSync(npmrc);
    expect(later.state(npmrc)).toBe('pinned');
  });

  it('keeps pins of a process without a trust record for that process only', async () => {
    const { workspace, env, packageJson } = project();
    const pins = new TrustedWorkspaceFiles({ storage: fileTrustStorage(workspace, env) });
    await pins.pin([packageJson]);
    expect(pins.state(packageJson)).toBe('pinned');
    expect(new TrustedWorkspaceFiles({ storage: fileTrustStorage(workspace, env) }).state(packageJson)).toBe(
      'unpinned',
    );
  });

  it('re-hashes only a file whose device, inode, size or ctime changed', () => {
    const { packageJson } = project();
    const pinned = pinFile(packageJson);
    // Same stat, a recorded hash that is not the content's: answered from the stat, unread.
    expect(pinFile(packageJson, { ...pinned, sha256: 'recorded' }).sha256).toBe('recorded');
    appendFileSync(packageJson, ' ');
    expect(pinFile(packageJson, { ...pinned, sha256: 'recorded' }).sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pins the files a --trust-project launch finds, and hands the host the pins for the permission engine', async () => {
    const { workspace, env } = project();
    write(path.join(workspace, 'quiver.yaml'), 'plugins: [acme]\n');
    const host = await QuiverHost.create({
      sqlite: sqliteBackend,
      configPath: path.join(workspace, 'quiver.yaml'),
      logger: silent,
      trust: { launch: true, env },
    });
    cleanups.push(() => void host.close());
    expect(host.trust?.basis).toBe('launch');
    expect(host.options.filePins).toBeInstanceOf(TrustedWorkspaceFiles);
    // A plugin that was not installed at launch: its node_modules location is protected from tools.
    const location = path.join(workspace, 'node_modules/acme');
    expect(host.protectedPaths.map((entry) => entry.path)).toContain(location);
    expect(host.trust?.code?.plugins.acme).toMatchObject({ location: null });
  });
});

describe('hashes a --trust-project launch keeps', () => {
  it('are kept beside the trust records, and the next launch re-hashes only files whose stat changed', async () => {
    const { workspace, env } = project();
    const server = path.join(workspace, 'tools/server.mjs');
    write(server, "import './lib.mjs';\n");
    write(path.join(workspace, 'tools/lib.mjs'), 'export {};\n');
    write(
      path.join(workspace, 'quiver.yaml'),
      `mcpServers:\n  local:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(server)}]\n`,
    );
    const launch = async () => {
      const host = await QuiverHost.create({
        sqlite: sqliteBackend,
        configPath: path.join(workspace, 'quiver.yaml'),
        logger: silent,
        trust: { launch: true, env },
      });
      await host.close();
      return host.trust?.code?.servers.local;
    };
    const first = await launch();
    expect(first?.files[server]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const directory = path.join(env.XDG_DATA_HOME, 'quiver/trust/launch-hashes');
    const [cache] = readdirSync(directory);
    // A recorded hash whose stat still matches is taken as is: the file is not read again.
    const file = path.join(directory, cache as string);
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    cached.servers.local.files[server].sha256 = 'from the cache';
    writeFileSync(file, JSON.stringify(cached));
    expect((await launch())?.files[server]?.sha256).toBe('from the cache');
    appendFileSync(server, '\n');
    expect((await launch())?.files[server]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readdirSync(workspace).sort()).toEqual(['.quiver', 'package.json', 'quiver.yaml', 'tools']);
  });
});

describeWithSystemTools(['postgres', 'initdb'])('workspace file pins in PostgreSQL', () => {
  const server = usePostgresServer();

  it('adds pins to the shared record without changing when it was trusted, and another replica reads them', async () => {
    const { workspace, packageJson } = project();
    const url = await server().freshDatabase('file_pins');
    const open = async () => {
      const database = await openSharedDatabase({
        url,
        source: 'the test',
        project: 'team',
        applicationName: 'quiver-test',
        maxConnections: 2,
      });
      return SharedTrustStorage.open({
        store: await database.openStore('trust', TRUST_MIGRATIONS),
        project: 'team',
        logger: silent,
        workspace,
        onClose: () => database.close(),
      });
    };
    const first = await open();
    const second = await open();
    try {
      await first.writeRecord(baselineConfiguration({}));
      const trustedAt = first.record()?.trustedAt;
      await new TrustedWorkspaceFiles({ storage: first }).pin([packageJson]);
      expect(first.record()?.trustedAt).toBe(trustedAt);
      const reopened = await open();
      try {
        const pins = new TrustedWorkspaceFiles({ storage: reopened });
        expect(pins.state(packageJson)).toBe('pinned');
        appendFileSync(packageJson, '\n');
        expect(pins.state(packageJson)).toBe('changed');
      } finally {
        await reopened.close();
      }
    } finally {
      await first.close();
      await second.close();
    }
  });
});
