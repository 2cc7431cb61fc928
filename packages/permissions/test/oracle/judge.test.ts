import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as permissions from '../../src/index.js';
import { reportOf } from './analysis-report.js';
import { judgeTrace, shellQuote } from './judge.js';
import { permissionsPort } from './permissions-port.js';
import { ATTACKER_RULES, BLANKET_RULES } from './rule-sets.js';
import type { TraceEvent } from './strace-log.js';

const workspace = mkdtempSync(path.join(tmpdir(), 'quiver-judge-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const port = permissionsPort(permissions, workspace);

/** A trace shaped like strace's: pid 1 is the harness's bash, then whatever the command did. */
function trace(...events: TraceEvent[]): TraceEvent[] {
  return [{ kind: 'exec', pid: 1, path: '/bin/bash', argv: ['bash', '-c', '…'], ok: true }, ...events];
}
const fork = (pid: number, child: number): TraceEvent => ({ kind: 'spawn', pid, child, thread: false });
const exec = (pid: number, file: string, ...argv: string[]): TraceEvent => ({
  kind: 'exec',
  pid,
  path: file,
  argv: [path.basename(file), ...argv],
  ok: true,
});
const write = (pid: number, file: string): TraceEvent => ({
  kind: 'write',
  pid,
  syscall: 'openat',
  path: file,
  ok: true,
});

async function judge(command: string, events: TraceEvent[], ruleSet = ATTACKER_RULES) {
  const report = reportOf(await port.analyze(command), workspace);
  return judgeTrace(events, report, ruleSet, port);
}

describe('judging a trace', () => {
  it('accepts git refreshing its index while it runs git status', async () => {
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/git', 'status'),
      write(2, `${workspace}/.git/index.lock`),
    );
    expect(await judge('git status', events)).toEqual([]);
  });

  it('reports a program the shell ran that the analyzer did not list', async () => {
    const events = trace(fork(1, 2), exec(2, '/usr/bin/touch', 'canary'));
    expect(await judge('git status', events)).toContainEqual(
      expect.objectContaining({ kind: 'unreported-exec', subject: 'touch' }),
    );
  });

  it('reports a hook that git starts, since git is taken to run nothing', async () => {
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/git', 'status'),
      fork(2, 3),
      exec(3, '/bin/sh', '-c', 'x'),
    );
    expect(await judge('git status', events)).toContainEqual(
      expect.objectContaining({ kind: 'unreported-exec', subject: 'sh' }),
    );
  });

  it('reports a file a read-only program wrote that the analyzer did not list', async () => {
    const events = trace(fork(1, 2), exec(2, '/usr/bin/git', 'status'), write(2, `${workspace}/notes`));
    expect(await judge('git status', events)).toContainEqual(
      expect.objectContaining({ kind: 'unreported-write', subject: `${workspace}/notes` }),
    );
  });

  it('attributes what an opaque program runs to that program, under a blanket allow', async () => {
    const events = trace(fork(1, 2), exec(2, '/usr/bin/make'), fork(2, 3), exec(3, '/usr/bin/cc', 'a.c'));
    expect(await judge('make', events, BLANKET_RULES)).toEqual([]);
  });

  it('attributes the transport git push starts to git push, but not a hook git status starts', async () => {
    const push = trace(
      fork(1, 2),
      exec(2, '/usr/bin/git', 'push', 'o'),
      fork(2, 3),
      exec(3, '/bin/sh', '-c', 'x'),
    );
    expect(await judge('git push o', push, BLANKET_RULES)).toEqual([]);
    const status = trace(
      fork(1, 2),
      exec(2, '/usr/bin/git', '-C', 'push', 'status'),
      fork(2, 3),
      exec(3, '/bin/sh'),
    );
    expect(await judge('git -C push status', status, BLANKET_RULES)).not.toEqual([]);
  });

  it('reports a command bash ran that the rules would not allow, where the analyzer saw an allowed one', async () => {
    const events = trace(fork(1, 2), exec(2, '/usr/bin/git', 'stash'));
    expect(await judge('git status', events)).toContainEqual(
      expect.objectContaining({ kind: 'not-allowed-exec', subject: 'git stash' }),
    );
  });

  it('still reports a denied program that bash ran itself', async () => {
    const events = trace(fork(1, 2), exec(2, '/usr/bin/touch', 'x'));
    expect(await judge('echo touch', events, BLANKET_RULES)).toContainEqual(
      expect.objectContaining({ kind: 'denied-exec', subject: 'touch' }),
    );
  });

  it('reports a program npm starts other than node and its script shell', async () => {
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/npm', 'run', 'test'),
      exec(2, '/usr/bin/node', '/usr/bin/npm', 'run', 'test'),
      fork(2, 3),
      exec(3, '/bin/sh', '-c', 'echo ok'),
      fork(2, 4),
      exec(4, `${workspace}/bin/npm-shell`, '-c', 'echo ok'),
    );
    const findings = await judge('npm run test', events);
    expect(findings.map((finding) => finding.subject)).toEqual(['npm-shell']);
  });

  it('accepts a package manager changing node_modules itself, the route the protected list names', async () => {
    // Found by the fuzzer (seed 488607, command 410): `npm r t` is npm uninstall, whose reify
    // writes node_modules/.package-lock.json.
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/npm', 'r', 't'),
      exec(2, '/usr/bin/node', '/usr/bin/npm', 'r', 't'),
      {
        kind: 'write',
        pid: 2,
        syscall: 'openat',
        path: `${workspace}/node_modules/.package-lock.json`,
        ok: false,
        error: 'ENOENT',
      },
    );
    expect(await judge('npm r t', events, BLANKET_RULES)).toEqual([]);
  });

  it('still reports code a package manager starts writing into node_modules', async () => {
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/npm', 'install'),
      exec(2, '/usr/bin/node', '/usr/bin/npm', 'install'),
      fork(2, 3),
      exec(3, '/bin/sh', '-c', 'node postinstall.js'),
      exec(3, '/usr/bin/node', 'postinstall.js'),
      write(3, `${workspace}/node_modules/.bin/eslint`),
    );
    expect(await judge('npm install', events, BLANKET_RULES)).toContainEqual(
      expect.objectContaining({ kind: 'denied-write', subject: `${workspace}/node_modules/.bin/eslint` }),
    );
  });

  it('accepts git changing its own objects, refs and state files, the route the protected list names', async () => {
    // Found by the fuzzer (seed 291107, command 670): `git stash` writes objects, the stash ref,
    // its reflog and ORIG_HEAD into .git, which **/.git/** protects from every other writer.
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/git', 'stash'),
      {
        kind: 'write',
        pid: 2,
        syscall: 'openat',
        path: `${workspace}/.git/objects/b0/tmp_obj_zz1gOw`,
        ok: false,
        error: 'ENOENT',
      },
      write(2, `${workspace}/.git/objects/b0/838ec657c4e10815f84976d5c7f06c5f31a3aa`),
      write(2, `${workspace}/.git/index.stash.11.lock`),
      write(2, `${workspace}/.git/refs/stash.lock`),
      write(2, `${workspace}/.git/logs/refs/stash`),
      write(2, `${workspace}/.git/ORIG_HEAD`),
      write(2, `${workspace}/.git/MERGE_RR`),
    );
    expect(await judge('git stash', events, BLANKET_RULES)).toEqual([]);
  });

  it('still reports git writing its configuration, hooks or a link to other objects', async () => {
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/git', 'stash'),
      write(2, `${workspace}/.git/config.lock`),
      write(2, `${workspace}/.git/hooks/post-checkout`),
      write(2, `${workspace}/.git/objects/info/alternates`),
    );
    const subjects = (await judge('git stash', events, BLANKET_RULES)).map((finding) => finding.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        `${workspace}/.git/config.lock`,
        `${workspace}/.git/hooks/post-checkout`,
        `${workspace}/.git/objects/info/alternates`,
      ]),
    );
  });

  it("still reports a program other than git writing git's state files", async () => {
    const events = trace(
      fork(1, 2),
      exec(2, '/usr/bin/cp', 'x', '.git/refs/heads/main'),
      write(2, `${workspace}/.git/refs/heads/main`),
    );
    expect(await judge('cp x .git/refs/heads/main', events, BLANKET_RULES)).toContainEqual(
      expect.objectContaining({ kind: 'denied-write', subject: `${workspace}/.git/refs/heads/main` }),
    );
  });

  it('quotes an executed word that looks like an assignment, so it reads back as a program', () => {
    expect(shellQuote(['LANG=C', 'touch', 'a b'])).toBe("'LANG=C' touch 'a b'");
  });
});
