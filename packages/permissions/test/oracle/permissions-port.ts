import type { PermissionDecision, ToolPermissionSpec } from '@quiver/types';
import type { analyzeShellCommand, PermissionEngine, ShellAnalysis } from '../../src/index.js';
import type { OracleRuleSet } from './rule-sets.js';
import { MemoryFilePins } from './workspace-pins.js';

/**
 * What the oracle asks of @quiver/permissions. Passed in rather than imported so that the test
 * judges the source, the fuzz runner judges the built package, and a deliberately broken
 * analyzer can show that the oracle catches it.
 */
export interface PermissionsPort {
  analyze(command: string): Promise<ShellAnalysis>;
  /** `cwd` is the terminal tool's argument: relative to the workspace. */
  decideCommand(ruleSet: OracleRuleSet, command: string, cwd?: string): Promise<PermissionDecision>;
  decideWrite(ruleSet: OracleRuleSet, file: string): Promise<PermissionDecision>;
  /** Optional: ports of the command oracle need not decide reads. */
  decideRead?(ruleSet: OracleRuleSet, file: string): Promise<PermissionDecision>;
}

/**
 * Engine options the host passes besides the rules (protected paths, the trust record's pinned
 * files). Loosely typed, so the oracle can pass what a newer engine takes before this one does.
 */
export type HostEngineOptions = Record<string, unknown>;

export interface PermissionsApi {
  analyzeShellCommand: typeof analyzeShellCommand;
  PermissionEngine: typeof PermissionEngine;
}

type Args = Record<string, string>;
const SHELL: ToolPermissionSpec<Args> = {
  kind: 'shell',
  command: (args) => args.command as string,
  cwd: (args) => args.cwd,
};
const WRITE: ToolPermissionSpec<Args> = { kind: 'write', paths: (args) => [args.path as string] };
const READ: ToolPermissionSpec<Args> = { kind: 'read', paths: (args) => [args.path as string] };

/** The real package: `analyzeShellCommand` for what it reports, one engine per rule set for verdicts. */
export function permissionsPort(
  api: PermissionsApi,
  workspace: string,
  hostOptions: HostEngineOptions = {},
): PermissionsPort {
  const engines = new Map<string, PermissionEngine>();
  const engine = (ruleSet: OracleRuleSet) => {
    let found = engines.get(ruleSet.name);
    if (!found) {
      const options = { ...hostOptions, workspace, layers: [ruleSet.rules] };
      found = new api.PermissionEngine(options as ConstructorParameters<typeof PermissionEngine>[0]);
      engines.set(ruleSet.name, found);
    }
    return found;
  };
  return {
    analyze: (command) => api.analyzeShellCommand(command),
    decideCommand: (ruleSet, command, cwd) =>
      engine(ruleSet).decide({
        toolName: 'terminal',
        args: cwd === undefined || cwd === '.' ? { command } : { command, cwd },
        spec: SHELL as ToolPermissionSpec,
      }),
    decideRead: (ruleSet, file) =>
      engine(ruleSet).decide({
        toolName: 'read_file',
        args: { path: file },
        spec: READ as ToolPermissionSpec,
      }),
    decideWrite: (ruleSet, file) =>
      engine(ruleSet).decide({
        toolName: 'write_file',
        args: { path: file },
        spec: WRITE as ToolPermissionSpec,
      }),
  };
}

/**
 * The real package on a workspace a person trusts as it is now: every file in it pinned (the
 * trust record), so programs that read package.json or `.npmrc` are judged on the command alone.
 */
export function trustedWorkspacePort(api: PermissionsApi, workspace: string): PermissionsPort {
  const filePins = new MemoryFilePins();
  filePins.pinTree(workspace);
  return permissionsPort(api, workspace, { filePins });
}
