import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findSystemTool } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..');
const scratch = mkdtempSync(join(tmpdir(), 'quiver-test-utils-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A PATH holding only node, as on a machine without the system tools. */
function pathWithOnlyNode(): string {
  const bin = mkdtempSync(join(scratch, 'bin-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

function runFixture(env: Record<string, string>) {
  const ledger = mkdtempSync(join(scratch, 'ledger-'));
  const vitest = join(packageRoot, 'node_modules', 'vitest', 'vitest.mjs');
  const result = spawnSync(
    process.execPath,
    [vitest, 'run', '--config', join(here, 'fixtures', 'vitest.fixture.config.ts')],
    {
      cwd: packageRoot,
      encoding: 'utf8',
      env: { HOME: process.env.HOME ?? '/tmp', PATH: pathWithOnlyNode(), QUIVER_NOT_RUN_DIR: ledger, ...env },
    },
  );
  const records = readdirSync(ledger).flatMap((file) =>
    readFileSync(join(ledger, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}`, records };
}

describe('system tools', () => {
  it('finds an executable on PATH and not a plain file or a missing name', () => {
    const bin = mkdtempSync(join(scratch, 'lookup-'));
    writeFileSync(join(bin, 'quiver-fake-tool'), '#!/bin/sh\n');
    chmodSync(join(bin, 'quiver-fake-tool'), 0o755);
    writeFileSync(join(bin, 'quiver-not-executable'), 'data');
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      expect(findSystemTool('quiver-fake-tool')).toBe(join(bin, 'quiver-fake-tool'));
      expect(findSystemTool('quiver-not-executable')).toBeUndefined();
      expect(findSystemTool('quiver-no-such-tool')).toBeUndefined();
    } finally {
      process.env.PATH = saved;
    }
  });

  it('does not run a test whose tool is missing, passes the run, and records what did not run', () => {
    const { status, output, records } = runFixture({});
    expect(status).toBe(0);
    expect(output).toContain('1 passed');
    expect(output).toContain('1 skipped');
    expect(records).toEqual([expect.objectContaining({ test: 'searches with ripgrep', missing: ['rg'] })]);
  });

  it('fails the test and says what to install when QUIVER_REQUIRE_SYSTEM_TOOLS=1', () => {
    const { status, output, records } = runFixture({ QUIVER_REQUIRE_SYSTEM_TOOLS: '1' });
    expect(status).toBe(1);
    expect(output).toContain('1 failed');
    expect(output).toContain('apt-get install ripgrep');
    expect(records).toEqual([]);
  });
});
