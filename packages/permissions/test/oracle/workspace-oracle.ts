import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PermissionDecision } from '@quiver/types';
import { reportOf } from './analysis-report.js';
import type { CleanFixtureTree } from './fixture-tree.js';
import { type PermissionsApi, type PermissionsPort, permissionsPort } from './permissions-port.js';
import type { OracleRuleSet } from './rule-sets.js';
import { type Baseline, baselineOf, judgeWorkspaceRun, type WorkspaceFinding } from './workspace-judge.js';
import { MemoryFilePins } from './workspace-pins.js';
import {
  plantFiles,
  runWorkspaceSession,
  type SessionCommand,
  type SessionOptions,
} from './workspace-sandbox.js';
import type { PlantedFile, PlantedState } from './workspace-states.js';

/** A command as the terminal tool receives it: the text and the directory it runs in. */
export interface WorkspacePair {
  command: string;
  /** Relative to the workspace; `.` is the root. */
  cwd: string;
}

export interface PairVerdict extends WorkspacePair {
  allowedUnder: string[];
  findings: WorkspaceFinding[];
  timedOut?: boolean;
  analyzerError?: string;
  /** The planted run's time in the sandbox (restore and command). */
  runMs?: number;
}

export interface StateVerdict {
  state: PlantedState;
  /** Rule sets under which the model could not have planted the state (a file is protected or denied). */
  unreachableUnder: string[];
  verdicts: PairVerdict[];
  /** Pairs bash ran (some rule set allowed them). */
  ran: number;
  decideMs: number;
  runMs: number;
}

/**
 * Makes the permissions port of one session: a new engine whose session starts after the state
 * was planted (every `quiver call` is a new session), configured as the host configures it.
 */
export type SessionPortFactory = (workspace: string) => PermissionsPort;

export interface WorkspaceOracle {
  fixture: CleanFixtureTree;
  /** Plants the state on the host, decides every pair under every rule set, runs the allowed ones and judges them. */
  check(state: PlantedState, pairs: readonly WorkspacePair[]): Promise<StateVerdict>;
}

/**
 * A file's ctime is as old as the copy that made it; the engine counts files written within a few
 * milliseconds before its session began as written during it. Waiting this long after planting
 * makes the planted state plainly older than the session, as it is for a real `quiver call`.
 */
const SETTLE_MS = 40;

export function resetWorkspace(fixture: CleanFixtureTree, files: readonly PlantedFile[]): void {
  rmSync(fixture.workspace, { recursive: true, force: true });
  cpSync(fixture.template, fixture.workspace, { recursive: true, verbatimSymlinks: true });
  plantFiles(fixture.workspace, files);
}

export function createWorkspaceOracle(
  fixture: CleanFixtureTree,
  sessionPort: SessionPortFactory,
  ruleSets: readonly OracleRuleSet[],
  options: SessionOptions = {},
): WorkspaceOracle {
  const baselines = new Map<string, Baseline>();
  const key = (pair: WorkspacePair) => `${pair.cwd}\0${pair.command}`;
  return {
    fixture,
    async check(state, pairs) {
      const started = performance.now();
      // Whether the model could have written each file is decided before it exists: a link
      // planted at `docs` must not make its own creation look like a write outside the workspace.
      resetWorkspace(fixture, []);
      const unreachableUnder: string[] = [];
      const before = sessionPort(fixture.workspace);
      for (const ruleSet of ruleSets) {
        for (const file of state.files) {
          const decision = await before.decideWrite(ruleSet, path.join(fixture.workspace, file.path));
          if (decision.behavior === 'deny') {
            unreachableUnder.push(ruleSet.name);
            break;
          }
        }
      }
      plantFiles(fixture.workspace, state.files);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const port = sessionPort(fixture.workspace);
      const reachable = ruleSets.filter((ruleSet) => !unreachableUnder.includes(ruleSet.name));
      const verdicts: PairVerdict[] = [];
      const allowedSets: OracleRuleSet[][] = [];
      for (const pair of pairs) {
        const verdict: PairVerdict = { ...pair, allowedUnder: [], findings: [] };
        const allowed: OracleRuleSet[] = [];
        try {
          for (const ruleSet of reachable) {
            const decision: PermissionDecision = await port.decideCommand(ruleSet, pair.command, pair.cwd);
            if (decision.behavior === 'allow') allowed.push(ruleSet);
          }
        } catch (error) {
          verdict.analyzerError = error instanceof Error ? (error.stack ?? error.message) : String(error);
          allowed.length = 0;
        }
        verdict.allowedUnder = allowed.map((ruleSet) => ruleSet.name);
        verdicts.push(verdict);
        allowedSets.push(allowed);
      }
      const decideMs = performance.now() - started;
      const runStarted = performance.now();
      const toRun = verdicts.flatMap((verdict, index) => (verdict.allowedUnder.length > 0 ? [index] : []));
      const session: SessionCommand[] = [];
      const baselineIndex = new Map<string, number>();
      for (const index of toRun) {
        const pair = verdicts[index] as PairVerdict;
        if (!baselines.has(key(pair)) && !baselineIndex.has(key(pair))) {
          baselineIndex.set(key(pair), session.length);
          session.push({ command: pair.command, cwd: pair.cwd, planted: false });
        }
      }
      const plantedStart = session.length;
      for (const index of toRun) {
        const pair = verdicts[index] as PairVerdict;
        session.push({ command: pair.command, cwd: pair.cwd, planted: true });
      }
      if (session.length > 0) {
        const result = await runWorkspaceSession(fixture, state.files, session, options);
        for (const [pairKey, index] of baselineIndex)
          baselines.set(pairKey, baselineOf(result.runs[index]?.events ?? []));
        for (const [offset, index] of toRun.entries()) {
          const verdict = verdicts[index] as PairVerdict;
          const run = result.runs[plantedStart + offset];
          if (!run || run.skipped) continue;
          if (run.timedOut) verdict.timedOut = true;
          verdict.runMs = run.durationMs;
          const report = reportOf(await port.analyze(verdict.command), fixture.workspace);
          verdict.findings = await judgeWorkspaceRun({
            events: run.events,
            command: verdict.command,
            report,
            baseline: baselines.get(key(verdict)) ?? { execs: new Set() },
            ruleSets: allowedSets[index] ?? [],
            port,
            workspace: fixture.workspace,
          });
        }
      }
      return {
        state,
        unreachableUnder,
        verdicts,
        ran: toRun.length,
        decideMs,
        runMs: performance.now() - runStarted,
      };
    },
  };
}

/**
 * The workspace-relative paths the host write-protects, for a package that does not export
 * `workspaceProtectedPaths()` yet: git's directories (config, hooks) and Quiver's configuration and data.
 */
export const FALLBACK_PROTECTED_PATHS = ['**/.git/**', '**/quiver.yaml', '**/quiver.yml', '.quiver/**'];

type ProtectedPathList = ReadonlyArray<string | { path: string; reason?: string }>;

export interface HostConfiguredApi extends PermissionsApi {
  workspaceProtectedPaths?: () => ProtectedPathList;
  WORKSPACE_PROTECTED_PATHS?: ProtectedPathList;
}

/** The workspace-relative protected paths the package exports, or the fallback. */
export function workspaceProtectedPathsOf(api: HostConfiguredApi): {
  paths: ProtectedPathList;
  from: string;
} {
  if (typeof api.workspaceProtectedPaths === 'function')
    return { paths: api.workspaceProtectedPaths(), from: 'workspaceProtectedPaths()' };
  if (Array.isArray(api.WORKSPACE_PROTECTED_PATHS))
    return { paths: api.WORKSPACE_PROTECTED_PATHS, from: 'WORKSPACE_PROTECTED_PATHS' };
  return { paths: FALLBACK_PROTECTED_PATHS, from: 'the fallback list' };
}

/**
 * Ports configured as the host configures the engine: protected paths from the package (or the
 * fallback above), and the trust record's pins taken of the clean workspace before any state is
 * planted (every path in it pinned, every other path under it pinned as absent).
 */
export function hostSessionPorts(api: HostConfiguredApi, fixture: CleanFixtureTree): SessionPortFactory {
  const pins = new MemoryFilePins();
  resetWorkspace(fixture, []);
  pins.pinTree(fixture.workspace);
  const protectedPaths = workspaceProtectedPathsOf(api).paths;
  return (workspace) => permissionsPort(api, workspace, { protectedPaths, filePins: pins });
}

/**
 * The harness's self-test port: decisions taken in a clean copy of the workspace, so the analyzer
 * never sees what was planted ("the model removed"). Findings must then appear.
 */
export function cleanCopySessionPorts(
  api: PermissionsApi,
  fixture: CleanFixtureTree,
  /** Working directories the pairs use, created empty in the copy. */
  directories: readonly string[] = [],
): SessionPortFactory {
  const copy = path.join(fixture.base, 'clean-copy');
  rmSync(copy, { recursive: true, force: true });
  cpSync(fixture.template, copy, { recursive: true, verbatimSymlinks: true });
  for (const directory of directories) mkdirSync(path.join(copy, directory), { recursive: true });
  return () => permissionsPort(api, copy, { protectedPaths: FALLBACK_PROTECTED_PATHS });
}
