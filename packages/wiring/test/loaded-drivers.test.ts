import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'loaded-drivers.mjs');
const workspaces: string[] = [];

interface Loaded {
  saved: boolean;
  error?: string;
  betterSqlite3: boolean;
  pg: boolean;
}

function workspace(yaml?: string): string {
  const made = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-drivers-')));
  workspaces.push(made);
  if (yaml !== undefined) writeFileSync(path.join(made, 'quiver.yaml'), yaml);
  return made;
}

/** A separate process: what this test process imported says nothing about what a host loads. */
async function driversLoadedBy(dir: string, env: NodeJS.ProcessEnv = {}): Promise<Loaded> {
  const { stdout } = await promisify(execFile)(process.execPath, [FIXTURE, dir], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Loaded;
}

afterEach(() => {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('database drivers a host loads', () => {
  it('loads better-sqlite3 and never pg in a process on the default SQLite storage', async () => {
    const loaded = await driversLoadedBy(workspace());
    expect(loaded).toMatchObject({ saved: true, betterSqlite3: true, pg: false });
  });
});

describeWithSystemTools(['postgres', 'initdb'])('database drivers a PostgreSQL host loads', () => {
  const server = usePostgresServer();

  it('never loads better-sqlite3 in a process whose quiver.yaml keeps state in PostgreSQL', async () => {
    const url = await server().freshDatabase('drivers');
    const dir = workspace(
      ['storage:', '  kind: postgres', `  url: \${QUIVER_TEST_DRIVERS_URL}`, ''].join('\n'),
    );
    const loaded = await driversLoadedBy(dir, {
      QUIVER_TEST_DRIVERS_URL: url,
      XDG_DATA_HOME: path.join(dir, '.xdg'),
    });
    expect(loaded).toMatchObject({ saved: true, betterSqlite3: false, pg: true });
  });
});
