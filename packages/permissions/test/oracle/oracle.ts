import type { PermissionDecision } from '@quiver/types';
import { reportOf } from './analysis-report.js';
import type { FixtureTree } from './fixture-tree.js';
import { type Finding, judgeTrace } from './judge.js';
import type { PermissionsPort } from './permissions-port.js';
import type { OracleRuleSet } from './rule-sets.js';
import { runInSandbox, type SandboxOptions, type SandboxRun } from './sandbox-run.js';

export interface OracleVerdict {
  command: string;
  /** Names of the rule sets under which the analyzer allowed the command. */
  allowedUnder: string[];
  findings: Finding[];
  /** Absent when no rule set allowed the command: bash is only run for allowed commands. */
  run?: Pick<SandboxRun, 'timedOut' | 'truncated' | 'durationMs'>;
  /** The analyzer threw: counted as a disagreement, since a crash must not be read as a verdict. */
  analyzerError?: string;
}

export interface Oracle {
  check(command: string): Promise<OracleVerdict>;
  /** Runs bash on the command in the sandbox whatever the verdicts, and returns the raw trace. */
  trace(command: string): Promise<SandboxRun>;
}

export function createOracle(
  fixture: FixtureTree,
  port: PermissionsPort,
  ruleSets: readonly OracleRuleSet[],
  options: SandboxOptions = {},
): Oracle {
  return {
    trace: (command) => runInSandbox(fixture, command, options),
    async check(command) {
      let analysis: Awaited<ReturnType<PermissionsPort['analyze']>>;
      const decisions: Array<[OracleRuleSet, PermissionDecision]> = [];
      try {
        analysis = await port.analyze(command);
        for (const ruleSet of ruleSets) decisions.push([ruleSet, await port.decideCommand(ruleSet, command)]);
      } catch (error) {
        return {
          command,
          allowedUnder: [],
          findings: [],
          analyzerError: error instanceof Error ? (error.stack ?? error.message) : String(error),
        };
      }
      const allowed = decisions
        .filter(([, decision]) => decision.behavior === 'allow')
        .map(([ruleSet]) => ruleSet);
      const verdict: OracleVerdict = {
        command,
        allowedUnder: allowed.map((ruleSet) => ruleSet.name),
        findings: [],
      };
      if (allowed.length === 0) return verdict;
      const run = await runInSandbox(fixture, command, options);
      const report = reportOf(analysis, fixture.workspace);
      for (const ruleSet of allowed)
        verdict.findings.push(...(await judgeTrace(run.events, report, ruleSet, port)));
      verdict.run = { timedOut: run.timedOut, truncated: run.truncated, durationMs: run.durationMs };
      return verdict;
    },
  };
}
