import path from 'node:path';
import type { ShellAnalysis } from '../../src/index.js';

/** What the analyzer said a command runs and writes, in the form the oracle compares with a trace. */
export interface AnalysisReport {
  /** Base names of every program reported: commands, wrapper layers, wrappers. */
  programs: Set<string>;
  /** Of those, the names reported without a directory: bash looks them up on PATH. */
  bareNames: Set<string>;
  /** Names reported only as wrappers (their own argv is not what a rule allowed). */
  wrapperOnly: Set<string>;
  /** Absolute paths of reported writes; `anywhere` holds relative targets whose directory is unknown. */
  writes: Set<string>;
  anywhere: string[];
}

export function reportOf(analysis: ShellAnalysis, workspace: string): AnalysisReport {
  const programs = new Set<string>();
  const bareNames = new Set<string>();
  const commandNames = new Set<string>();
  const writes = new Set<string>();
  const anywhere: string[] = [];
  const addProgram = (word: string | undefined, isCommand: boolean) => {
    if (!word) return;
    const name = path.posix.basename(word);
    programs.add(name);
    if (!word.includes('/')) bareNames.add(name);
    if (isCommand) commandNames.add(name);
  };
  for (const command of analysis.commands) {
    addProgram(command.argv[0], true);
    for (const layer of command.outerArgv) addProgram(layer[0], false);
    for (const wrapper of command.wrappers) addProgram(wrapper.split(/\s+/)[0], false);
    const directories = command.workingDirectories === undefined ? ['.'] : command.workingDirectories;
    for (const redirect of command.redirects) {
      if (redirect.kind !== 'write') continue;
      if (path.posix.isAbsolute(redirect.path)) writes.add(path.posix.resolve(redirect.path));
      else if (directories === null) anywhere.push(redirect.path);
      else
        for (const directory of directories)
          writes.add(path.posix.resolve(workspace, directory, redirect.path));
    }
  }
  const wrapperOnly = new Set([...programs].filter((name) => !commandNames.has(name)));
  return { programs, bareNames, wrapperOnly, writes, anywhere };
}

export function reportsWrite(report: AnalysisReport, file: string): boolean {
  if (report.writes.has(file)) return true;
  return report.anywhere.some((target) => file.endsWith(`/${path.posix.normalize(target)}`));
}
