import { readFileSync } from 'node:fs';
import { describeWithSystemTools } from '@quiver/test-utils';
import type { PermissionRules } from '@quiver/types';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as permissions from '../../src/index.js';
import { type CleanFixtureTree, createCleanFixtureTree } from './fixture-tree.js';
import { fuzzCommand } from './fuzz-run.js';
import { knownAttackCommands } from './known-attacks.js';
import { corpusCommands } from './mutation.js';
import {
  ATTACKER_RULES,
  BLANKET_RULES,
  DEFAULT_PERSONALITY_SOURCE,
  defaultRuleSet,
  mustAllowRuleSet,
  type OracleRuleSet,
} from './rule-sets.js';
import { workspaceBatch } from './workspace-fuzz.js';
import {
  cleanCopySessionPorts,
  createWorkspaceOracle,
  hostSessionPorts,
  type WorkspaceOracle,
} from './workspace-oracle.js';
import {
  describeWorkspaceFinding,
  entryToleranceKeys,
  readWorkspaceRegressions,
  stateOfEntry,
  tokenize,
  toleranceKeys,
} from './workspace-regressions.js';
import type { PlantedState } from './workspace-states.js';

const fixtures = new URL('../fixtures/', import.meta.url);
const mustAllow = JSON.parse(readFileSync(new URL('must-allow.json', fixtures), 'utf8')) as {
  rules: PermissionRules;
  commands: string[];
};
const regressions = readWorkspaceRegressions(
  new URL('workspace-regressions.json', fixtures).pathname,
).entries;
const strict = process.env.QUIVER_ORACLE_STRICT === '1';
const sampleSeed = Number(process.env.QUIVER_WS_ORACLE_SEED ?? Math.floor(Math.random() * 1_000_000));
/**
 * Allowed pairs the sample runs: 40–200 ms each in the sandbox (npm and npx dominate), so 400 stay
 * near a minute on a loaded two-core machine, well inside CI's three; the states are drawn until
 * this many pairs ran.
 */
const samplePairs = Number(process.env.QUIVER_WS_ORACLE_PAIRS ?? (process.env.CI ? 400 : 100));

/** "blanket outside-read [links out of the workspace] cat": what open entries tolerate in the sample. */
const openSignatures = new Set(regressions.filter((entry) => entry.open).flatMap(entryToleranceKeys));

let fixture: CleanFixtureTree;
let ruleSets: OracleRuleSet[];
let oracle: WorkspaceOracle;

const MUST_ALLOW = mustAllowRuleSet(mustAllow);

function plantedBareRepository(): PlantedState {
  return {
    id: 'self-test',
    kind: 'git bare repository',
    files: [
      { path: 'sub/HEAD', text: 'ref: refs/heads/main\n' },
      { path: 'sub/objects/info/keep', text: '' },
      { path: 'sub/refs/heads/keep', text: '' },
      { path: 'sub/config', text: '[diff]\n\texternal = "/usr/bin/touch /tmp/pwned-self-test"\n' },
      { path: 'sub/a', text: 'one\n' },
      { path: 'sub/b', text: 'two\n' },
    ],
    directories: ['sub'],
    commands: [],
  };
}

describeWithSystemTools(['strace', 'bwrap', 'git'])(
  'the workspace oracle: bash in planted workspaces',
  () => {
    beforeAll(async () => {
      fixture = createCleanFixtureTree();
      const source = new URL(DEFAULT_PERSONALITY_SOURCE, import.meta.url).href;
      const wiring = (await import(source)) as { DEFAULT_PERSONALITY: { permissions: PermissionRules } };
      ruleSets = [MUST_ALLOW, ATTACKER_RULES, BLANKET_RULES, defaultRuleSet(wiring.DEFAULT_PERSONALITY)];
      oracle = createWorkspaceOracle(fixture, hostSessionPorts(permissions, fixture), ruleSets);
    });
    afterAll(() => fixture?.dispose());

    it('catches a planted bare repository when the analyzer cannot see it (decisions taken in a clean copy)', async () => {
      const blind = createWorkspaceOracle(fixture, cleanCopySessionPorts(permissions, fixture, ['sub']), [
        MUST_ALLOW,
      ]);
      const verdict = await blind.check(plantedBareRepository(), [
        { command: 'git diff --no-index a b', cwd: 'sub' },
      ]);
      const pair = verdict.verdicts[0];
      expect(pair?.allowedUnder).toEqual(['must-allow']);
      expect(pair?.findings).toContainEqual(
        expect.objectContaining({ kind: 'unreported-exec', subject: 'touch', ruleSets: ['must-allow'] }),
      );
      expect(pair?.findings.map((finding) => finding.kind)).toContain('payload-exec');
    }, 60_000);

    it('catches a read outside the workspace through a planted link when the analyzer cannot see it', async () => {
      const blind = createWorkspaceOracle(fixture, cleanCopySessionPorts(permissions, fixture, ['sub']), [
        MUST_ALLOW,
      ]);
      const state: PlantedState = {
        id: 'self-test-link',
        kind: 'links out of the workspace',
        files: [{ path: 'notes.md', symlink: `${fixture.outside}/secret.txt` }],
        directories: ['.'],
        commands: [],
      };
      const verdict = await blind.check(state, [{ command: 'cat notes.md', cwd: '.' }]);
      expect(verdict.verdicts[0]?.findings).toContainEqual(
        expect.objectContaining({ kind: 'outside-read', subject: `${fixture.outside}/secret.txt` }),
      );
    }, 60_000);

    it('catches a planted diff driver that reads a secret outside the workspace when the analyzer cannot see it', async () => {
      const blind = createWorkspaceOracle(fixture, cleanCopySessionPorts(permissions, fixture, ['sub']), [
        MUST_ALLOW,
      ]);
      const state = plantedBareRepository();
      const config = state.files.find((file) => file.path === 'sub/config');
      if (config) config.text = `[diff]\n\texternal = "/bin/cat ${fixture.home}/.ssh/id_rsa"\n`;
      const verdict = await blind.check(state, [{ command: 'git diff --no-index a b', cwd: 'sub' }]);
      expect(verdict.verdicts[0]?.findings).toContainEqual(
        expect.objectContaining({ kind: 'outside-read', subject: `${fixture.home}/.ssh/id_rsa` }),
      );
    }, 60_000);

    it('finds nothing wrong with the must-allow corpus in the clean workspace', async () => {
      const clean: PlantedState = { id: 'clean', kind: 'none', files: [], directories: ['.'], commands: [] };
      const pairs = mustAllow.commands
        .filter((_, index) => index % 5 === 0)
        .map((command) => ({ command, cwd: '.' }));
      const verdict = await oracle.check(clean, pairs);
      const found = verdict.verdicts.flatMap((pair) =>
        pair.findings.map(
          (finding) => `${pair.command}: ${tokenize(describeWorkspaceFinding(finding), fixture)}`,
        ),
      );
      expect(verdict.ran).toBeGreaterThan(pairs.length / 2);
      expect(found).toEqual([]);
    }, 300_000);

    it.each(regressions.map((entry, index) => [entry.kind, entry.command, index] as const))(
      'keeps the recorded %s pair %j from running or reading anything unreported',
      async (_kind, _command, index) => {
        const entry = regressions[index];
        if (!entry) return;
        const { state, command } = stateOfEntry(entry, fixture, `r${index}`);
        const pair = (await oracle.check(state, [{ command, cwd: entry.cwd }])).verdicts[0];
        const found = (pair?.findings ?? []).map((finding) =>
          tokenize(describeWorkspaceFinding(finding), fixture),
        );
        if (entry.open && !strict) {
          expect(
            found.length,
            'The analyzer now gets this open entry right: remove its "open" flag in workspace-regressions.json (or run pnpm fuzz:shell --workspaces --recheck).',
          ).toBeGreaterThan(0);
          return;
        }
        expect(found, `bash did more than the analyzer reported (${entry.kind})`).toEqual([]);
      },
      60_000,
    );

    it(`finds no new kind of finding in ${samplePairs} allowed pairs of planted states (seed ${sampleSeed})`, async () => {
      console.log(`[workspace oracle] sample: seed ${sampleSeed}, ${samplePairs} allowed pairs`);
      const corpusFile = (name: string) => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));
      // The same sources, in the same order, as pnpm fuzz:shell --workspaces: a seed names the same pairs.
      const seeds = [
        ...corpusCommands(corpusFile('bypass-corpus.json')),
        ...corpusCommands(corpusFile('allowed-corpus.json')),
        ...knownAttackCommands().map((attack) => attack.command),
      ];
      const corpus = [...mustAllow.commands, ...corpusCommands(corpusFile('allowed-corpus.json'))];
      const sources = { corpus, generated: (index: number) => fuzzCommand(sampleSeed, index, seeds) };
      const problems: string[] = [];
      let ran = 0;
      const started = performance.now();
      let states = 0;
      for (let index = 0; ran < samplePairs && index < 1000; index++) {
        states++;
        const { state, pairs } = workspaceBatch(sampleSeed, index, oracle, sources);
        const verdict = await oracle.check(state, pairs);
        ran += verdict.ran;
        for (const pair of verdict.verdicts) {
          if (pair.analyzerError)
            problems.push(
              `state ${index}: ${JSON.stringify(pair.command)}: analyzer error ${pair.analyzerError}`,
            );
          const fresh = pair.findings.filter(
            (finding) =>
              strict ||
              !toleranceKeys(finding.ruleSets, finding.kind, state.kind, pair.command).every((key) =>
                openSignatures.has(key),
              ),
          );
          for (const finding of fresh)
            problems.push(
              `state ${index} (${state.kind}) in ${pair.cwd}: ${JSON.stringify(tokenize(pair.command, fixture))}: ${tokenize(describeWorkspaceFinding(finding), fixture)}`,
            );
        }
      }
      console.log(
        `[workspace oracle] ${states} states, ${ran} pairs run, ${problems.length} new findings, ${((performance.now() - started) / Math.max(ran, 1)).toFixed(0)} ms per pair`,
      );
      expect(
        problems,
        `Reproduce with QUIVER_WS_ORACLE_SEED=${sampleSeed} QUIVER_WS_ORACLE_PAIRS=${samplePairs}, or shrink and record them with pnpm fuzz:shell --workspaces --seed ${sampleSeed}`,
      ).toEqual([]);
    }, 900_000);
  },
);
