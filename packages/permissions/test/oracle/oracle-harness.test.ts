import { describeWithSystemTools } from '@quiver/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as permissions from '../../src/index.js';
import { createFixtureTree, type FixtureTree } from './fixture-tree.js';
import { createOracle } from './oracle.js';
import { type PermissionsPort, trustedWorkspacePort } from './permissions-port.js';
import { ATTACKER_RULES, BLANKET_RULES } from './rule-sets.js';
import type { TraceEvent } from './strace-log.js';

const ORACLE_TOOLS = ['strace', 'bwrap', 'git'] as const;
let fixture: FixtureTree;
let real: PermissionsPort;

/** A broken analyzer: it allows everything and forgets what `forget` drops from its report. */
function forgetful(
  forget: (analysis: permissions.ShellAnalysis) => permissions.ShellAnalysis,
): PermissionsPort {
  return {
    analyze: async (command) => forget(await real.analyze(command)),
    decideCommand: async (ruleSet, command) =>
      ruleSet.name.endsWith('(denies only)')
        ? real.decideCommand(ruleSet, command)
        : { behavior: 'allow', reason: 'a broken analyzer allows everything' },
    decideWrite: (ruleSet, file) => real.decideWrite(ruleSet, file),
  };
}

const execs = (events: TraceEvent[]) =>
  events.flatMap((event) => (event.kind === 'exec' && event.ok ? [event.argv[0] ?? ''] : []));
const writes = (events: TraceEvent[]) =>
  events.flatMap((event) => (event.kind === 'write' && event.ok ? [event.path] : []));

describeWithSystemTools([...ORACLE_TOOLS])('the shell oracle', () => {
  beforeAll(() => {
    fixture = createFixtureTree();
    real = trustedWorkspacePort(permissions, fixture.workspace);
  });
  afterAll(() => fixture?.dispose());

  it('records a canary that a command substitution inside a here-document runs', async () => {
    const oracle = createOracle(fixture, real, [ATTACKER_RULES]);
    const run = await oracle.trace('cat <<EOF\n$(touch canary-heredoc)\nEOF');
    expect(execs(run.events)).toContain('touch');
    expect(writes(run.events)).toContain(`${fixture.workspace}/canary-heredoc`);
  });

  it('records the hook a git configuration named by HOME makes git run', async () => {
    const oracle = createOracle(fixture, real, [ATTACKER_RULES]);
    const run = await oracle.trace('HOME=evil-home git status');
    expect(execs(run.events)).toEqual(expect.arrayContaining(['git', 'touch']));
    expect(writes(run.events)).toContain(`${fixture.workspace}/canary-home-fsmonitor`);
  });

  it('gives each command a fresh copy of the fixture, so one run cannot prepare the next', async () => {
    const oracle = createOracle(fixture, real, [ATTACKER_RULES]);
    const planting = await oracle.trace('touch planted; test -e planted');
    const next = await oracle.trace('test -e planted');
    expect(planting.exitCode).toBe(0);
    expect(next.exitCode).toBe(1);
  });

  it('catches an analyzer that forgets a program it runs', async () => {
    const port = forgetful((analysis) => ({
      ...analysis,
      commands: analysis.commands.filter((command) => command.argv[0] !== 'touch'),
    }));
    const verdict = await createOracle(fixture, port, [ATTACKER_RULES]).check('echo hi; touch canary-forgot');
    expect(verdict.allowedUnder).toEqual(['attacker']);
    expect(verdict.findings).toContainEqual(
      expect.objectContaining({ ruleSet: 'attacker', kind: 'unreported-exec', subject: 'touch' }),
    );
  });

  it('catches an analyzer that forgets a file a redirection writes', async () => {
    const port = forgetful((analysis) => ({
      ...analysis,
      commands: analysis.commands.map((command) => ({ ...command, redirects: [] })),
    }));
    const verdict = await createOracle(fixture, port, [ATTACKER_RULES]).check('echo hi > canary-written');
    expect(verdict.findings).toContainEqual(
      expect.objectContaining({
        kind: 'unreported-write',
        subject: `${fixture.workspace}/canary-written`,
      }),
    );
  });

  it('catches a program a deny rule covers even when the analyzer reported it', async () => {
    const port = forgetful((analysis) => analysis);
    const verdict = await createOracle(fixture, port, [BLANKET_RULES]).check('touch canary-denied');
    expect(verdict.findings).toContainEqual(
      expect.objectContaining({ ruleSet: 'blanket', kind: 'denied-exec', subject: 'touch' }),
    );
  });

  it('catches a program that a harmless-looking name resolves to through PATH', async () => {
    const port = forgetful((analysis) => analysis);
    const verdict = await createOracle(fixture, port, [ATTACKER_RULES]).check('PATH=bin:/usr/bin ls');
    expect(verdict.findings.map((finding) => finding.kind)).toEqual(
      expect.arrayContaining(['unexpected-path', 'unreported-exec']),
    );
  });

  it.each([
    'git status',
    'git diff --stat',
    'ls -la src',
    'echo "a # b" > /dev/null',
    'npm run test',
  ])('finds nothing wrong with %s, which runs only what it says', async (command) => {
    const verdict = await createOracle(fixture, real, [ATTACKER_RULES, BLANKET_RULES]).check(command);
    expect(verdict.allowedUnder).toContain('blanket');
    expect(verdict.findings).toEqual([]);
  }, 60_000);
});
