import type { PermissionDecision, ToolPermissionSpec } from '@quiver/types';
import type { analyzeShellCommand, PermissionEngine, ShellAnalysis } from '../../src/index.js';
import type { OracleRuleSet } from './rule-sets.js';

/**
 * What the oracle asks of @quiver/permissions. Passed in rather than imported so that the test
 * judges the source, the fuzz runner judges the built package, and a deliberately broken
 * analyzer can show that the oracle catches it.
 */
export interface PermissionsPort {
  analyze(command: string): Promise<ShellAnalysis>;
  decideCommand(ruleSet: OracleRuleSet, command: string): Promise<PermissionDecision>;
  decideWrite(ruleSet: OracleRuleSet, file: string): Promise<PermissionDecision>;
}

export interface PermissionsApi {
  analyzeShellCommand: typeof analyzeShellCommand;
  PermissionEngine: typeof PermissionEngine;
}

type Args = Record<string, string>;
const SHELL: ToolPermissionSpec<Args> = { kind: 'shell', command: (args) => args.command as string };
const WRITE: ToolPermissionSpec<Args> = { kind: 'write', paths: (args) => [args.path as string] };

/** The real package: `analyzeShellCommand` for what it reports, one engine per rule set for verdicts. */
export function permissionsPort(api: PermissionsApi, workspace: string): PermissionsPort {
  const engines = new Map<string, PermissionEngine>();
  const engine = (ruleSet: OracleRuleSet) => {
    let found = engines.get(ruleSet.name);
    if (!found) {
      found = new api.PermissionEngine({ workspace, layers: [ruleSet.rules] });
      engines.set(ruleSet.name, found);
    }
    return found;
  };
  return {
    analyze: (command) => api.analyzeShellCommand(command),
    decideCommand: (ruleSet, command) =>
      engine(ruleSet).decide({ toolName: 'terminal', args: { command }, spec: SHELL as ToolPermissionSpec }),
    decideWrite: (ruleSet, file) =>
      engine(ruleSet).decide({
        toolName: 'write_file',
        args: { path: file },
        spec: WRITE as ToolPermissionSpec,
      }),
  };
}
