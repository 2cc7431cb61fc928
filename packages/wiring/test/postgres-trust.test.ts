import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { HOSTILE_PERSONALITY, hostileServerYaml } from '@quiver/test-utils/hostile-mcp-server';
import { afterEach, expect, it } from 'vitest';
import { createQuiver, openQuiverProjectTrust, type Quiver } from '../src/index.js';

const URL_VARIABLE = 'QUIVER_TEST_TRUST_DATABASE_URL';
const FETCH_NOTES = 'mcp__hostile__fetch_notes';
const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface Replica {
  workspace: string;
  /** This replica's own user data directory (replicas run on different hosts). */
  xdg: string;
  env: NodeJS.ProcessEnv;
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeWithSystemTools(['postgres', 'initdb'])('trust records and MCP tool pins on PostgreSQL', () => {
  const server = usePostgresServer();
  const directories: string[] = [];
  const open: Quiver[] = [];

  afterEach(async () => {
    await Promise.all(open.splice(0).map((quiver) => quiver.close()));
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  function directory(prefix: string): string {
    const made = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
    directories.push(made);
    return made;
  }

  /** Two replicas of one project: the same quiver.yaml and personality in two workspace copies. */
  async function twoReplicas(): Promise<{ first: Replica; second: Replica; state: string }> {
    const url = await server().freshDatabase('trust');
    const state = directory('quiver-hostile-state-');
    const replica = (): Replica => {
      const workspace = directory('quiver-replica-');
      writeFileSync(
        path.join(workspace, 'quiver.yaml'),
        [
          'defaultPersonality: dev',
          'storage:',
          '  kind: postgres',
          `  url: \${${URL_VARIABLE}}`,
          `  project: \${QUIVER_TEST_PROJECT}`,
          ...hostileServerYaml(state),
          '',
        ].join('\n'),
      );
      mkdirSync(path.join(workspace, 'personalities'));
      writeFileSync(path.join(workspace, 'personalities/dev.yaml'), HOSTILE_PERSONALITY);
      const xdg = directory('quiver-xdg-');
      return {
        workspace,
        xdg,
        env: { ...process.env, [URL_VARIABLE]: url, QUIVER_TEST_PROJECT: 'team-app', XDG_DATA_HOME: xdg },
      };
    };
    return { first: replica(), second: replica(), state };
  }

  async function start(replica: Replica, trustProject = false): Promise<Quiver> {
    const quiver = await createQuiver({
      workspace: replica.workspace,
      env: replica.env,
      logger: silent,
      ...(trustProject ? { trustProject } : {}),
    });
    open.push(quiver);
    return quiver;
  }

  it('trusts on one replica the configuration a person trusted through the other, keeping no file', async () => {
    const { first, second } = await twoReplicas();
    const before = await start(second);
    expect(before.trust.state).toBe('untrusted');
    expect(before.trustNotice).toContain('mcpServers.hostile');

    const { inspection, trustStorage } = await openQuiverProjectTrust({
      workspace: first.workspace,
      env: first.env,
    });
    try {
      expect(inspection.trust?.state).toBe('untrusted');
      await trustStorage.writeRecord(inspection.configuration);
    } finally {
      await trustStorage.close();
    }

    const after = await start(second);
    expect(after.trust.state).toBe('trusted');
    expect(after.trust.basis).toBe('record');
    expect(after.trustNotice).toBeUndefined();
    expect(existsSync(path.join(first.xdg, 'quiver'))).toBe(false);
    expect(existsSync(path.join(second.xdg, 'quiver'))).toBe(false);
  }, 120_000);

  it('withholds on one replica a tool whose definition changed since the other pinned it, until a person approves it', async () => {
    const { first, second } = await twoReplicas();
    const pinning = await start(first, true);
    const firstSession = pinning.createSession();
    await firstSession.ready();
    expect(firstSession.pool().definitions.map((tool) => tool.name)).toContain(FETCH_NOTES);
    // The server changes fetch_notes and remembers it: the other replica's server offers the changed form.
    const [swapped] = await firstSession.execute([{ name: 'mcp__hostile__swap', args: {} }]);
    expect(swapped?.ok).toBe(true);
    const pending = await eventually('the changed definition to wait for review', async () => {
      const pins = await pinning.host.trustStorage.readPins();
      return pins?.servers.hostile?.fetch_notes?.pending;
    });

    const other = await start(second, true);
    const secondSession = other.createSession();
    await secondSession.ready();
    const names = secondSession.pool().definitions.map((tool) => tool.name);
    expect(names).toContain('mcp__hostile__swap');
    expect(names).not.toContain(FETCH_NOTES);
    expect(existsSync(path.join(second.xdg, 'quiver'))).toBe(false);

    // What `quiver mcp review` does on the first replica's host.
    const { trustStorage } = await openQuiverProjectTrust({ workspace: first.workspace, env: first.env });
    try {
      expect(await trustStorage.approve({ server: 'hostile', tool: 'fetch_notes', hash: pending.hash })).toBe(
        true,
      );
    } finally {
      await trustStorage.close();
    }
    const approved = await eventually('the approved tool on the other replica', () =>
      secondSession.pool().definitions.find((tool) => tool.name === FETCH_NOTES),
    );
    expect(approved.description).toContain('id_rsa');
    const [called] = await secondSession.execute([{ name: FETCH_NOTES, args: { topic: 'q' } }]);
    expect(called?.ok).toBe(true);
  }, 120_000);
});
