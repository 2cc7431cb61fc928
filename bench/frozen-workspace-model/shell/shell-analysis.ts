/** The result of analyzing a shell command: every simple command it would run, and what could not be checked. */
export interface ShellRedirect {
  path: string;
  kind: 'write' | 'read';
}

export interface ShellCommandAnalysis {
  /** The words the program receives after quote removal, with leading `VAR=x` and wrappers removed. */
  argv: string[];
  /** The source text of the simple command, as written. */
  text: string;
  /** Wrapper programs peeled off, outermost first (`sudo`, `env`, `bash -c`, `find -exec`, …). */
  wrappers: string[];
  /** Files the command's redirections (and wrappers such as `time -o`) write or read. */
  redirects: ShellRedirect[];
  /** The argv of each wrapper layer, outermost first; deny rules are checked against these too. */
  outerArgv: string[][];
  /**
   * Directories, relative to the starting directory, the command may run in after a `cd`;
   * absent when it runs where the command started, `null` when that cannot be known.
   */
  workingDirectories?: string[] | null;
  /** Arguments whose value is not known statically (expansions, globs); paths in them cannot be checked. */
  opaqueArguments: string[];
  /** The program receives more arguments than argv shows (`xargs`, `find -exec … +`). */
  appendsArguments: boolean;
}

export interface ShellUnsafeConstruct {
  reason: string;
  text: string;
}

/**
 * A construct outside the provable subset of bash (or a place where the grammar and the strict
 * reader disagree). `start`/`end` are offsets into the JavaScript string of the command; inside a
 * nested `bash -c` payload they span the payload word.
 */
export interface ShellUnprovenConstruct {
  construct: string;
  start: number;
  end: number;
  /** The source text of that range. */
  text: string;
}

export interface ShellAnalysis {
  commands: ShellCommandAnalysis[];
  unsafe: ShellUnsafeConstruct[];
  /** Why the command is not proven: empty when every character is accounted for by the subset. */
  unproven: ShellUnprovenConstruct[];
  /** Set when the parser could not fully understand the command. */
  parseError?: string;
}
