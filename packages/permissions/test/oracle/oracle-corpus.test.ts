import { readFileSync } from 'node:fs';
import { describeWithSystemTools } from '@quiver/test-utils';
import type { PermissionRules } from '@quiver/types';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as permissions from '../../src/index.js';
import { createFixtureTree, type FixtureTree } from './fixture-tree.js';
import { fuzzCommand } from './fuzz-run.js';
import type { Finding } from './judge.js';
import { knownAttackCommands } from './known-attacks.js';
import { corpusCommands } from './mutation.js';
import { createOracle, type Oracle } from './oracle.js';
import { trustedWorkspacePort } from './permissions-port.js';
import { classifyCommand, describeFinding, readRegressions } from './regressions.js';
import { ATTACKER_RULES, BLANKET_RULES, DEFAULT_PERSONALITY_SOURCE, defaultRuleSet } from './rule-sets.js';

const regressionsFile = new URL('../fixtures/oracle-regressions.json', import.meta.url);
const regressions = readRegressions(regressionsFile.pathname).entries;
/** QUIVER_ORACLE_STRICT=1 fails on every disagreement, open entries included. */
const strict = process.env.QUIVER_ORACLE_STRICT === '1';
const sampleSeed = Number(process.env.QUIVER_ORACLE_SEED ?? Math.floor(Math.random() * 1_000_000));
const sampleCount = Number(process.env.QUIVER_ORACLE_COUNT ?? (process.env.CI ? 3000 : 300));

let fixture: FixtureTree;
let oracle: Oracle;

/** The same seed corpus, in the same order, as pnpm fuzz:shell uses: a seed names the same commands. */
function seeds(): string[] {
  const corpus = (name: string) =>
    JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
  return [
    ...corpusCommands(corpus('bypass-corpus.json')),
    ...corpusCommands(corpus('allowed-corpus.json')),
    ...knownAttackCommands().map((attack) => attack.command),
    ...regressions.map((entry) => entry.command),
  ];
}

/**
 * "blanket unreported-exec [here-document]": the rule set, kind and command class of each finding
 * an open regression entry records. Outside strict mode the random sample fails only on
 * disagreements of another signature, so that known open ones do not hide a new one; the program
 * or file is left out because shrinking and mutation rename it freely.
 */
const signature = (finding: string, command: string) =>
  `${(finding.split(':')[0] ?? '').split(' ').slice(0, 2).join(' ')} [${classifyCommand(command)}]`;
const openCommands = new Set(regressions.filter((entry) => entry.open).map((entry) => entry.command));
const openSignatures = new Set(
  regressions
    .filter((entry) => entry.open)
    .flatMap((entry) => entry.findings.map((finding) => signature(finding, entry.command))),
);

describeWithSystemTools(['strace', 'bwrap', 'git'])(
  'bash itself, as the oracle of the shell analyzer',
  () => {
    beforeAll(async () => {
      fixture = createFixtureTree();
      // Read from source: @quiver/wiring depends on this package, and the file imports nothing.
      const source = new URL(DEFAULT_PERSONALITY_SOURCE, import.meta.url).href;
      const wiring = (await import(source)) as { DEFAULT_PERSONALITY: { permissions: PermissionRules } };
      oracle = createOracle(fixture, trustedWorkspacePort(permissions, fixture.workspace), [
        ATTACKER_RULES,
        BLANKET_RULES,
        defaultRuleSet(wiring.DEFAULT_PERSONALITY),
      ]);
    });
    afterAll(() => fixture?.dispose());

    it.each(regressions.map((entry) => [entry.command, entry] as const))(
      'keeps %j from running or writing anything unreported',
      async (_command, entry) => {
        const verdict = await oracle.check(entry.command);
        const found = [
          ...verdict.findings.map((finding) => describeFinding(finding, fixture.workspace)),
          ...(verdict.analyzerError ? [`analyzer error: ${verdict.analyzerError}`] : []),
        ];
        if (entry.open && !strict) {
          expect(
            found.length,
            'The analyzer now gets this open entry right: remove its "open" flag in oracle-regressions.json (or run pnpm fuzz:shell --recheck).',
          ).toBeGreaterThan(0);
          return;
        }
        expect(found, `bash did more than the analyzer reported (${entry.class})`).toEqual([]);
      },
      60_000,
    );

    it.each(
      knownAttackCommands()
        .filter(({ command }) => !openCommands.has(command))
        .map(({ className, command }) => [className, command] as const),
    )(
      'lets no hand-written attack of the class "%s" through: %j',
      async (_className, command) => {
        const verdict = await oracle.check(command);
        expect(verdict.findings.map((finding) => describeFinding(finding, fixture.workspace))).toEqual([]);
        expect(verdict.analyzerError).toBeUndefined();
      },
      60_000,
    );

    it(`finds no new disagreement in ${sampleCount} generated commands (seed ${sampleSeed})`, async () => {
      console.log(`[shell oracle] random sample: seed ${sampleSeed}, ${sampleCount} commands`);
      const corpus = seeds();
      const disagreements: string[] = [];
      let allowed = 0;
      for (let index = 0; index < sampleCount; index++) {
        const verdict = await oracle.check(fuzzCommand(sampleSeed, index, corpus));
        if (verdict.allowedUnder.length > 0) allowed++;
        const fresh = verdict.findings.filter((finding: Finding) => {
          return (
            strict ||
            !openSignatures.has(signature(describeFinding(finding, fixture.workspace), verdict.command))
          );
        });
        if (fresh.length > 0 || verdict.analyzerError)
          disagreements.push(
            [
              `command ${index}: ${JSON.stringify(verdict.command)}`,
              ...fresh.map((finding) => `  ${describeFinding(finding, fixture.workspace)}`),
              ...(verdict.analyzerError ? [`  analyzer error: ${verdict.analyzerError}`] : []),
            ].join('\n'),
          );
      }
      console.log(
        `[shell oracle] ${allowed} of ${sampleCount} allowed by some rule set, ${disagreements.length} disagreements`,
      );
      expect(
        disagreements,
        `Reproduce with QUIVER_ORACLE_SEED=${sampleSeed} QUIVER_ORACLE_COUNT=${sampleCount}, or shrink and record them with pnpm fuzz:shell --seed ${sampleSeed} --count ${sampleCount}`,
      ).toEqual([]);
    }, 1_800_000);
  },
);
