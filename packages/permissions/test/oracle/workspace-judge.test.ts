import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from './analysis-report.js';
import type { PermissionsPort } from './permissions-port.js';
import type { OracleRuleSet } from './rule-sets.js';
import { parseStraceLog } from './strace-log.js';
import { baselineOf, judgeWorkspaceRun } from './workspace-judge.js';
import { MemoryFilePins } from './workspace-pins.js';

const WORKSPACE = '/w/ws';
const MUST_ALLOW: OracleRuleSet = { name: 'must-allow', rules: { allow: ['terminal(cat:*)'] } };
const DEFAULT: OracleRuleSet = {
  name: 'default',
  rules: { allow: ['terminal(git diff:*)'], deny: ['read_file(.env)'] },
};

/** Decides reads as a rule set with `read_file(.env)` denied would; nothing else is asked of it here. */
const port: PermissionsPort = {
  analyze: () => Promise.reject(new Error('not used')),
  decideCommand: () => Promise.reject(new Error('not used')),
  decideWrite: () => Promise.reject(new Error('not used')),
  decideRead: async (ruleSet, file) =>
    ruleSet.name === 'default' && file === `${WORKSPACE}/.env`
      ? { behavior: 'deny', rule: 'read_file(.env)', reason: 'denied' }
      : { behavior: 'allow', reason: 'allowed' },
};

function report(...programs: string[]): AnalysisReport {
  return {
    programs: new Set(programs),
    bareNames: new Set(programs),
    wrapperOnly: new Set(),
    writes: new Set(),
    anywhere: [],
  };
}

const trace = (...lines: string[]) => parseStraceLog(lines.join('\n'), WORKSPACE);
const BASH = '1 execve("/bin/bash", ["/bin/bash", "-c", "x"], 0x1 /* 1 vars */) = 0';

describe('the workspace judge', () => {
  it('finds a program the clean run did not run and the analyzer did not report, and the payload', async () => {
    const events = trace(
      BASH,
      '1 execve("/usr/bin/git", ["git", "diff"], 0x1 /* 1 vars */) = 0',
      '1 clone(child_stack=NULL, flags=SIGCHLD) = 2',
      '2 execve("/bin/sh", ["sh", "-c", "/usr/bin/touch /tmp/pwned-s1"], 0x1 /* 1 vars */) = 0',
    );
    const baseline = baselineOf(
      trace(BASH, '1 execve("/usr/bin/git", ["git", "diff"], 0x1 /* 1 vars */) = 0'),
    );
    const findings = await judgeWorkspaceRun({
      events,
      command: 'git diff',
      report: report('git'),
      baseline,
      ruleSets: [DEFAULT],
      port,
      workspace: WORKSPACE,
    });
    expect(findings.map((finding) => [finding.kind, finding.subject])).toEqual([
      ['payload-exec', 'sh'],
      ['unreported-exec', 'sh'],
    ]);
  });

  it('leaves alone what the clean run of the same command runs too', async () => {
    const events = trace(BASH, '1 execve("/usr/bin/node", ["node", "npm"], 0x1 /* 1 vars */) = 0');
    const findings = await judgeWorkspaceRun({
      events,
      command: 'npm test',
      report: report('npm'),
      baseline: baselineOf(events),
      ruleSets: [MUST_ALLOW],
      port,
      workspace: WORKSPACE,
    });
    expect(findings).toEqual([]);
  });

  it('finds a workspace file run as a program, reported name or not', async () => {
    const events = trace(
      BASH,
      `1 execve("${WORKSPACE}/node_modules/.bin/tsc", ["tsc"], 0x1 /* 1 vars */) = 0`,
    );
    const findings = await judgeWorkspaceRun({
      events,
      command: 'npx tsc',
      report: report('npx', 'tsc'),
      baseline: { execs: new Set() },
      ruleSets: [MUST_ALLOW],
      port,
      workspace: WORKSPACE,
    });
    expect(findings.map((finding) => finding.kind)).toEqual(['workspace-exec']);
  });

  it('finds reads outside the workspace where the open landed, but not system files or what the run wrote', async () => {
    const events = trace(
      BASH,
      `1 openat(AT_FDCWD</w/ws>, "notes.md", O_RDONLY) = 3</w/outside/secret.txt>`,
      '1 openat(AT_FDCWD</w/ws>, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3</etc/passwd>',
      '1 openat(AT_FDCWD</w/ws>, "/tmp/sh-thd.x", O_WRONLY|O_CREAT|O_TRUNC, 0600) = 3</tmp/sh-thd.x>',
      '1 openat(AT_FDCWD</w/ws>, "/tmp/sh-thd.x", O_RDONLY) = 3</tmp/sh-thd.x>',
      '1 openat(AT_FDCWD</w/ws>, "..", O_RDONLY|O_DIRECTORY) = 3</w>',
      '1 openat(AT_FDCWD</w/ws>, "/proc/self/status", O_RDONLY) = 3</proc/7/status>',
      '1 openat(AT_FDCWD</w/ws>, "/proc/self/environ", O_RDONLY) = 3</proc/7/environ>',
      '1 openat(AT_FDCWD</w/ws>, "/w/home/.gitconfig", O_RDONLY) = -1 ENOENT (No such file or directory)',
    );
    const findings = await judgeWorkspaceRun({
      events,
      command: 'cat notes.md; ls ..',
      report: report('cat', 'ls'),
      baseline: { execs: new Set() },
      ruleSets: [MUST_ALLOW],
      port,
      workspace: WORKSPACE,
    });
    expect(findings.map((finding) => [finding.kind, finding.subject])).toEqual([
      ['outside-read', '/w/outside/secret.txt'],
      ['outside-read', '/w'],
      ['outside-read', '/proc/7/environ'],
    ]);
  });

  it('finds a read a read deny covers, under the rule sets that deny it only', async () => {
    const events = trace(BASH, `1 openat(AT_FDCWD</w/ws>, "-ev", O_RDONLY) = 3</w/ws/.env>`);
    const findings = await judgeWorkspaceRun({
      events,
      command: 'git diff --no-index -- -ev a',
      report: report('git'),
      baseline: { execs: new Set() },
      ruleSets: [MUST_ALLOW, DEFAULT],
      port,
      workspace: WORKSPACE,
    });
    expect(findings).toEqual([expect.objectContaining({ kind: 'denied-read', ruleSets: ['default'] })]);
  });
});

describe('the workspace judge on writes', () => {
  it('finds a protected file written, but not git refreshing its index', async () => {
    const protecting: PermissionsPort = {
      ...port,
      decideWrite: async (_ruleSet, file) =>
        file.includes('/.git/')
          ? { behavior: 'deny', reason: 'protected' }
          : { behavior: 'ask', reason: 'no rule' },
    };
    const events = trace(
      BASH,
      '1 execve("/usr/bin/git", ["git", "config", "core.fsmonitor", "x"], 0x1 /* 1 vars */) = 0',
      `1 openat(AT_FDCWD</w/ws>, "${WORKSPACE}/.git/index.lock", O_RDWR|O_CREAT|O_EXCL, 0666) = 3</w/ws/.git/index.lock>`,
      `1 openat(AT_FDCWD</w/ws>, "${WORKSPACE}/.git/config.lock", O_RDWR|O_CREAT|O_EXCL, 0666) = 3</w/ws/.git/config.lock>`,
      `1 openat(AT_FDCWD</w/ws>, "/dev/null", O_WRONLY) = 3</dev/null>`,
    );
    const findings = await judgeWorkspaceRun({
      events,
      command: 'git config core.fsmonitor x',
      report: report('git'),
      baseline: baselineOf(events),
      ruleSets: [MUST_ALLOW],
      port: protecting,
      workspace: WORKSPACE,
    });
    expect(findings.map((finding) => [finding.kind, finding.subject])).toEqual([
      ['denied-write', `${WORKSPACE}/.git/config.lock`],
    ]);
  });
});

describe('the oracle’s file pins', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'quiver-pins-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('pins a clean tree: unchanged files and absent paths are pinned, planted or changed ones are not', () => {
    const workspace = path.join(root, 'ws');
    mkdirSync(path.join(workspace, 'src'), { recursive: true });
    writeFileSync(path.join(workspace, 'package.json'), '{}\n');
    const pins = new MemoryFilePins();
    pins.pinTree(workspace);
    expect(pins.state(path.join(workspace, 'package.json'))).toBe('pinned');
    expect(pins.state(path.join(workspace, '.npmrc'))).toBe('pinned');
    writeFileSync(path.join(workspace, 'package.json'), '{"scripts":{}}\n');
    writeFileSync(path.join(workspace, '.npmrc'), 'script-shell=x\n');
    symlinkSync('/etc/hostname', path.join(workspace, 'src', 'link'));
    expect(pins.state(path.join(workspace, 'package.json'))).toBe('changed');
    expect(pins.state(path.join(workspace, '.npmrc'))).toBe('changed');
    expect(pins.state(path.join(workspace, 'src', 'link'))).toBe('changed');
    expect(pins.state(path.join(root, 'elsewhere'))).toBe('unpinned');
    pins.pin([path.join(workspace, '.npmrc')]);
    expect(pins.state(path.join(workspace, '.npmrc'))).toBe('pinned');
  });
});
