import path from 'node:path';
import type { PermissionDecision, PermissionSubjectDecision } from '@quiver/types';
import { matchesCommandPrefix, normalizeCommandText, parseCommandSpecifier } from './command-rule.js';
import { absoluteIn, followedLinkOut, HARMLESS_DEVICES, linkOutOfWorkspace } from './followed-links.js';
import { isProtectionRule } from './protection-rules.js';
import type { PermissionRule } from './rule.js';
import type { RuleSet } from './rule-set.js';
import { analyzeShellCommand } from './shell/analyze-shell-command.js';
import { readsItsArguments } from './shell/program-semantics.js';
import type { ShellCommandAnalysis, ShellRedirect, ShellUnprovenConstruct } from './shell/shell-analysis.js';
import { combineSubjects, NO_RULE_ALLOWS } from './subjects.js';
import { suggestCommandRule, suggestShellRule } from './suggested-rule.js';
import { isDirectory, scanForDeniedSymlink } from './symlink-scan.js';
import type { TrustedFileState } from './trusted-files.js';
import { type UntrustedInput, untrustedProgramInputs, type WorkspaceTrust } from './workspace-code.js';
import {
  containsPath,
  isProcessRelativePath,
  normalizeWorkspacePath,
  realWorkspace,
} from './workspace-path.js';

/** Builtins that change nothing but the shell's own state; only deny rules apply to them. */
const INERT_COMMANDS = new Set(['cd', 'pushd', 'popd', 'true', 'false', ':']);

export interface ShellRequest {
  toolName: string;
  command: string;
  cwd?: string;
  /**
   * The trust record's word on a workspace file an allowed program would read as configuration or
   * code (pins, and files granted in this session). Absent: no file is pinned.
   */
  fileState?: (absolutePath: string) => TrustedFileState;
  /** A person approved this one decision: workspace files are taken as they are now. */
  trustWorkspaceOnce?: boolean;
}

/**
 * A shell subject decision. An ask caused by a construct outside the provable subset names it with
 * its range in the command (`construct`); every ask names the rule that would allow it.
 */
export interface ShellSubjectDecision extends PermissionSubjectDecision {
  construct?: { name: string; start: number; end: number };
  suggestedRule?: string;
  /** Workspace files the ask is about: granting `suggestedRule` pins them as they are now. */
  untrustedFiles?: string[];
}

type Directories = string[] | null;
type Subject = ShellSubjectDecision;

const deny = (subject: string, rule: PermissionRule, reason: string): Subject => ({
  subject,
  behavior: 'deny',
  rule: rule.source,
  reason,
});
const ask = (subject: string, reason: string, rule?: PermissionRule): Subject =>
  rule ? { subject, behavior: 'ask', rule: rule.source, reason } : { subject, behavior: 'ask', reason };
const allow = (subject: string, reason: string, rule?: PermissionRule): Subject =>
  rule ? { subject, behavior: 'allow', rule: rule.source, reason } : { subject, behavior: 'allow', reason };

/** Every subcommand and redirect must pass on its own; what the parser cannot check is asked. */
export async function decideShellCommand(request: ShellRequest, rules: RuleSet): Promise<PermissionDecision> {
  const { toolName, command } = request;
  const analysis = await analyzeShellCommand(command);
  const checker = new ShellChecker(
    toolName,
    rules,
    request.trustWorkspaceOnce ? undefined : workspaceTrust(rules, request.fileState),
  );
  const normalized = normalizeCommandText(command);
  const wholeCommandAllow = checker.allows.find(
    ({ rule, specifier }) => !specifier.prefix && normalizeCommandText(rule.specifier ?? '') === normalized,
  )?.rule;
  const base = request.cwd ?? '.';
  const subjects: Subject[] = [];
  for (const entry of analysis.commands) {
    const directories =
      entry.workingDirectories === undefined
        ? [base]
        : (entry.workingDirectories?.map((directory) =>
            path.posix.isAbsolute(directory) ? directory : path.posix.join(base, directory),
          ) ?? null);
    const subject = entry.wrappers.length === 0 && entry.text !== '' ? entry.text : entry.argv.join(' ');
    if (entry.argv.length > 0) {
      const decided = checker.decideCommand(entry, subject, directories);
      if (decided.behavior === 'ask' && decided.reason === NO_RULE_ALLOWS) {
        const suggested = suggestCommandRule(toolName, entry);
        if (suggested) decided.suggestedRule = suggested;
      }
      subjects.push(decided);
    }
    for (const redirect of entry.redirects) subjects.push(checker.decideRedirect(redirect, directories));
  }
  // A blanket allow does not lift these: a deny rule could not see what they hide. Only a rule
  // naming this exact command (below) does.
  for (const construct of analysis.unproven) subjects.push(unprovenSubject(construct));
  for (const construct of analysis.unsafe) subjects.push(ask(construct.text, construct.reason));
  if (wholeCommandAllow && !checker.blanketAsk) {
    for (const [index, decided] of subjects.entries()) {
      if (decided.behavior !== 'ask' || checker.changedCode.has(decided)) continue;
      subjects[index] = allow(
        decided.subject,
        `allowed by rule "${wholeCommandAllow.source}" for this exact command`,
        wholeCommandAllow,
      );
    }
  }
  const exact = `${toolName}(${normalized})`;
  for (const decided of subjects) if (decided.behavior === 'ask') decided.suggestedRule ??= exact;
  const decision: PermissionDecision & { untrustedFiles?: string[] } = combineSubjects(
    subjects,
    'the command runs no program',
  );
  const untrustedFiles = [...new Set(subjects.flatMap((decided) => decided.untrustedFiles ?? []))];
  if (untrustedFiles.length > 0) decision.untrustedFiles = untrustedFiles;
  if (decision.behavior === 'ask') {
    const asked = subjects.filter((decided) => decided.behavior === 'ask');
    decision.suggestedRule = asked.every((decided) => checker.changedCode.has(decided))
      ? asked[0]?.suggestedRule
      : suggestShellRule(toolName, command, analysis, subjects);
  }
  return decision;
}

function unprovenSubject(construct: ShellUnprovenConstruct): ShellSubjectDecision {
  return {
    subject: construct.text,
    behavior: 'ask',
    reason: `${construct.construct} (characters ${construct.start}–${construct.end}) is outside the part of bash this checker can prove; only a rule for this exact command allows it`,
    construct: { name: construct.construct, start: construct.start, end: construct.end },
  };
}

/** Whether a path is protected, per protection list: the list is fixed for an engine's life. */
const protectedMemo = new WeakMap<readonly PermissionRule[], Map<string, boolean>>();

/** What the workspace's protected paths and the trust record say a program may read. */
function workspaceTrust(
  rules: RuleSet,
  fileState: ((absolutePath: string) => TrustedFileState) | undefined,
): WorkspaceTrust {
  return {
    workspace: rules.workspace,
    // The paths asked about are built from real directories: matched as they are, not resolved again.
    isProtected: (absolutePath) => {
      const root = realWorkspace(rules.workspace);
      const relative = path.relative(root, absolutePath);
      const normalized =
        relative === ''
          ? '.'
          : relative.startsWith('..') || path.isAbsolute(relative)
            ? absolutePath
            : relative;
      let known = protectedMemo.get(rules.protections);
      if (known === undefined) {
        known = new Map();
        protectedMemo.set(rules.protections, known);
      }
      let found = known.get(normalized);
      if (found === undefined) {
        found = rules.firstPathMatch(rules.protections, normalized) !== undefined;
        if (known.size < 4096) known.set(normalized, found);
      }
      return found;
    },
    fileState: fileState ?? (() => 'unpinned'),
  };
}

class ShellChecker {
  readonly denies;
  readonly asks;
  readonly allows;
  readonly blanketAllow: PermissionRule | undefined;
  readonly blanketAsk: PermissionRule | undefined;
  /** Asks caused by workspace code changed since the rule was trusted: no rule lifts them. */
  readonly changedCode = new WeakSet<Subject>();
  readonly readDenies: PermissionRule[];
  readonly writeDenies: PermissionRule[];
  readonly reachingWriteDenies: PermissionRule[];
  readonly writeAllows: PermissionRule[];

  constructor(
    readonly toolName: string,
    readonly rules: RuleSet,
    /** Undefined when a person approved this decision once, workspace state included. */
    readonly trust?: WorkspaceTrust,
  ) {
    this.denies = commandRules(rules.forTool('deny', toolName));
    this.asks = commandRules(rules.forTool('ask', toolName));
    this.allows = commandRules(rules.forTool('allow', toolName));
    this.blanketAllow = rules.blanket('allow', toolName);
    this.blanketAsk = rules.blanket('ask', toolName);
    this.readDenies = rules.pathRules('deny', 'read');
    this.writeDenies = rules.pathRules('deny', 'write');
    // The workspace's own protections (`**/quiver.yaml`, `**/.git/**`) stop a program that names
    // such a path; they do not make every directory or glob argument ask, as a person's deny does.
    this.reachingWriteDenies = this.writeDenies.filter(
      (rule) => !isProtectionRule(rule) || rules.pathBase(rule) !== null,
    );
    this.writeAllows = rules.pathRules('allow', 'write');
  }

  readonly #codeChecks = new Map<string, UntrustedInput | undefined>();

  /** Workspace input checks of one decision are shared by its subcommands (`git status && git diff`). */
  #untrustedInputs(argv: readonly string[], directories: Directories): UntrustedInput | undefined {
    if (this.trust === undefined) return undefined;
    const program = path.posix.basename(argv[0] ?? '');
    const key = JSON.stringify([program === 'git' ? [program] : argv, directories]);
    if (!this.#codeChecks.has(key))
      this.#codeChecks.set(key, untrustedProgramInputs(argv, directories, this.trust));
    return this.#codeChecks.get(key);
  }

  get hasPathDenies(): boolean {
    return this.readDenies.length + this.reachingWriteDenies.length > 0;
  }

  decideCommand(entry: ShellCommandAnalysis, subject: string, directories: Directories): Subject {
    // Deny and ask rules also see each wrapper layer, and `/bin/rm` as `rm`; allow rules see only the real argv.
    const layers = [entry.argv, ...entry.outerArgv].flatMap((argv) => {
      const program = argv[0] ?? '';
      return program.includes('/') ? [argv, [path.posix.basename(program), ...argv.slice(1)]] : [argv];
    });
    const denied = this.denies.find(({ specifier }) =>
      layers.some((argv) => matchesCommandPrefix(specifier, argv)),
    );
    if (denied) return deny(subject, denied.rule, `denied by rule "${denied.rule.source}"`);
    const pathCheck = this.checkArguments(entry, subject, directories);
    if (pathCheck) return pathCheck;
    const asked =
      this.blanketAsk ??
      this.asks.find(({ specifier }) => layers.some((argv) => matchesCommandPrefix(specifier, argv)))?.rule;
    if (asked) return ask(subject, `rule "${asked.source}" asks for approval`, asked);
    const program = entry.argv[0] ?? '';
    if (entry.wrappers.length === 0 && INERT_COMMANDS.has(program)) {
      return allow(subject, `${program} only changes the shell's own state`);
    }
    const allowing =
      this.blanketAllow ??
      this.allows.find(
        ({ specifier }) =>
          (specifier.prefix || !entry.appendsArguments) && matchesCommandPrefix(specifier, entry.argv),
      )?.rule;
    if (!allowing) return ask(subject, NO_RULE_ALLOWS);
    // A blanket allow with nothing denied or asked lets the program run anything already: planted
    // state adds nothing to that. Any deny or ask rule is what planted state could hide from.
    const unbounded =
      allowing === this.blanketAllow && this.denies.length + this.asks.length === 0 && !this.hasPathDenies;
    const untrusted = unbounded ? undefined : this.#untrustedInputs(entry.argv, directories);
    if (untrusted) {
      const asked = ask(
        subject,
        untrusted.files.length > 0
          ? `${untrusted.reason}, and rule "${allowing.source}" allows ${untrusted.program} only with what a person trusted; granting it again pins the files as they are now`
          : `${untrusted.reason}; no rule allows that, a person must approve it each time (or remove what was planted)`,
      );
      asked.suggestedRule = allowing.source;
      if (untrusted.files.length > 0) asked.untrustedFiles = untrusted.files;
      this.changedCode.add(asked);
      return asked;
    }
    return allow(subject, `allowed by rule "${allowing.source}"`, allowing);
  }

  /**
   * Arguments that name a denied path deny the command. Ones that may reach a denied path are
   * asked: a directory above one, a directory holding a symlink into one, arguments fed from
   * standard input (`xargs`), and arguments or directories not known in advance.
   */
  checkArguments(
    entry: ShellCommandAnalysis,
    subject: string,
    directories: Directories,
  ): Subject | undefined {
    const searchDirectories = linkDirectories(entry, directories);
    const program = path.posix.basename(entry.argv[0] ?? '');
    const inert = entry.wrappers.length === 0 && INERT_COMMANDS.has(program);
    // What such a program writes (`sort -o`, redirections) is judged as a write elsewhere.
    const readsOnly = entry.wrappers.length === 0 && readsItsArguments(entry.argv);
    const named = readsOnly ? this.readDenies : [...this.readDenies, ...this.writeDenies];
    const denies = readsOnly ? this.readDenies : [...this.readDenies, ...this.reachingWriteDenies];
    let reaching: string | undefined;
    let outside: string | undefined;
    // Redirection targets (and `tee`'s files) are judged as writes, by the write rules.
    const written = new Set(entry.redirects.map((redirect) => redirect.path));
    for (const argument of argumentsOf(entry)) {
      if (written.has(argument.word)) continue;
      for (const candidate of pathCandidates(argument.word, argument.operand)) {
        for (const directory of resolvableDirectories(candidate, searchDirectories)) {
          const normalized = normalizeWorkspacePath(candidate, this.rules.workspace, directory);
          const rule = this.rules.firstPathMatch(named, normalized);
          if (rule) return deny(subject, rule, `names ${normalized}, denied by rule "${rule.source}"`);
          if (!inert && path.isAbsolute(normalized) && !HARMLESS_DEVICES.has(normalized))
            outside ??= `names ${normalized}, outside the workspace: a program reads and writes only inside it unless a person approves`;
          if (!this.hasPathDenies) continue;
          if (isProcessRelativePath(normalized)) reaching ??= processRelativeReason(normalized);
          if (!inert) reaching ??= this.#reachesDeny(normalized, denies);
        }
      }
    }
    if (!inert) outside ??= this.#globEscape(entry, searchDirectories);
    if (!inert) outside ??= followedLinkOut(entry.argv, this.rules.workspace, directories);
    if (!inert && directories !== null)
      for (const directory of directories) {
        const normalized = normalizeWorkspacePath('.', this.rules.workspace, directory);
        if (path.isAbsolute(normalized))
          outside ??= `runs in ${normalized}, outside the workspace: a program reads and writes only inside it unless a person approves`;
      }
    if (!this.hasPathDenies) return outside === undefined ? undefined : ask(subject, outside);
    if (entry.opaqueArguments.length > 0) {
      return ask(
        subject,
        `arguments ${entry.opaqueArguments.join(' ')} are not known in advance, so path deny rules cannot be checked`,
      );
    }
    if (directories === null) {
      return ask(
        subject,
        'runs in a directory that cannot be known in advance, so path deny rules cannot be checked',
      );
    }
    if (entry.wrappers.includes('xargs')) {
      return ask(
        subject,
        'xargs feeds it arguments from standard input, so path deny rules cannot be checked',
      );
    }
    const reason = outside ?? reaching;
    return reason === undefined ? undefined : ask(subject, reason);
  }

  /**
   * A glob (`src/*.ts`) expands to whatever its directory holds: a link there that leads out of
   * the workspace is read as the program reads any operand. Expansions (`$x`, `~`) ask elsewhere.
   */
  #globEscape(entry: ShellCommandAnalysis, directories: Directories): string | undefined {
    for (const opaque of entry.opaqueArguments) {
      if (/[$`]/.test(opaque) || opaque.startsWith('~')) continue;
      const firstGlob = opaque.search(/[*?[]/);
      if (firstGlob === -1) continue;
      const prefix = opaque.slice(0, firstGlob);
      const slash = prefix.lastIndexOf('/');
      const base = slash === -1 ? '.' : slash === 0 ? '/' : prefix.slice(0, slash);
      const recursive = opaque.slice(firstGlob).includes('/') || opaque.includes('**');
      for (const directory of resolvableDirectories(base, directories)) {
        const normalized = normalizeWorkspacePath(base, this.rules.workspace, directory);
        if (path.isAbsolute(normalized))
          return `names ${opaque}, which expands outside the workspace: a program reads and writes only inside it unless a person approves`;
        const leaving = linkOutOfWorkspace(normalized, this.rules.workspace, recursive);
        if (leaving)
          return `names ${opaque}, whose expansion can include ${leaving}, a link out of the workspace`;
      }
    }
    return undefined;
  }

  #reachesDeny(normalized: string, denies: PermissionRule[]): string | undefined {
    const workspace = this.rules.workspace;
    const containing = denies.find((candidate) => {
      const base = this.rules.pathBase(candidate);
      return base === null
        ? isDirectory(absoluteIn(normalized, workspace))
        : containsPath(normalized, base, workspace);
    });
    if (containing)
      return `names ${normalized}, a directory holding paths denied by rule "${containing.source}"`;
    if (!isDirectory(absoluteIn(normalized, workspace))) return undefined;
    const scan = scanForDeniedSymlink(normalized, workspace, (target) => {
      if (this.rules.firstPathMatch(denies, target)) return true;
      return denies.some((rule) => {
        const base = this.rules.pathBase(rule);
        return base !== null && containsPath(target, base, workspace);
      });
    });
    if (scan.kind === 'escapes')
      return `names ${normalized}, where the symlink ${scan.link} leads to denied ${scan.target}`;
    if (scan.kind === 'too-large')
      return `names ${normalized}, a directory too large to check for symlinks into denied paths`;
    return undefined;
  }

  decideRedirect(redirect: ShellRedirect, directories: Directories): Subject {
    const writes = redirect.kind === 'write';
    const subject = `${writes ? '>' : '<'} ${redirect.path}`;
    if (directories === null && !path.isAbsolute(redirect.path)) {
      return ask(
        subject,
        'the redirection target is relative to a directory that cannot be known in advance',
      );
    }
    const targets = resolvableDirectories(redirect.path, directories).map((directory) =>
      normalizeWorkspacePath(redirect.path, this.rules.workspace, directory),
    );
    for (const target of targets) {
      // A write redirect can also read (`<>`) or leak through a later read, so read denies hold for it too.
      const denied =
        this.rules.firstPathMatch(writes ? this.writeDenies : this.readDenies, target) ??
        (writes ? this.rules.firstPathMatch(this.readDenies, target) : undefined);
      if (denied)
        return deny(
          subject,
          denied,
          `${writes ? 'writes' : 'reads'} ${target}, denied by rule "${denied.source}"`,
        );
    }
    const processRelative = targets.find(isProcessRelativePath);
    if (processRelative && this.hasPathDenies) return ask(subject, processRelativeReason(processRelative));
    const outside = targets.find((target) => path.isAbsolute(target) && !HARMLESS_DEVICES.has(target));
    if (!writes && outside)
      return ask(
        subject,
        `reads ${outside}, outside the workspace: a program reads and writes only inside it unless a person approves`,
      );
    if (!writes) return allow(subject, 'reads a file no rule denies');
    if (this.blanketAsk)
      return ask(subject, `rule "${this.blanketAsk.source}" asks for approval`, this.blanketAsk);
    if (this.blanketAllow)
      return allow(subject, `allowed by rule "${this.blanketAllow.source}"`, this.blanketAllow);
    const allowing = targets.map((target) => this.rules.firstPathMatch(this.writeAllows, target));
    const first = allowing[0];
    if (first && allowing.every((rule) => rule !== undefined)) {
      return allow(subject, `writes a path allowed by rule "${first.source}"`, first);
    }
    return ask(subject, `writes ${targets.join(' or ')}, which no write rule allows`);
  }
}

/**
 * The ways an argument can carry a path: itself, `--opt=PATH`, `-oPATH`, `@PATH`, `host:PATH`.
 * An operand after `--` is a path whatever it looks like (`cat -- -ev`).
 */
function pathCandidates(argument: string, operand = false): string[] {
  const candidates = new Set<string>();
  if (operand || !argument.startsWith('-')) candidates.add(argument);
  const equals = argument.indexOf('=');
  if (equals !== -1) candidates.add(argument.slice(equals + 1));
  if (/^-[^-]/.test(argument) && argument.length > 2) candidates.add(argument.slice(2));
  if (argument.startsWith('@')) candidates.add(argument.slice(1));
  const colon = argument.lastIndexOf(':');
  // `host:PATH`, but not the `//host/…` of a URL.
  if (colon !== -1 && !argument.startsWith('/') && !argument.slice(colon + 1).startsWith('//'))
    candidates.add(argument.slice(colon + 1));
  candidates.delete('');
  return [...candidates];
}

/** `ln -s TARGET LINK` resolves a relative TARGET from the link's directory, not the shell's. */
function linkDirectories(entry: ShellCommandAnalysis, directories: Directories): Directories {
  const link = entry.argv.at(-1);
  if (path.posix.basename(entry.argv[0] ?? '') !== 'ln' || !directories || !link || entry.argv.length < 3)
    return directories;
  const extra = directories.flatMap((directory) => [
    path.posix.join(directory, link),
    path.posix.join(directory, path.posix.dirname(link)),
  ]);
  return [...directories, ...extra];
}

function resolvableDirectories(target: string, directories: Directories): Array<string | undefined> {
  if (path.isAbsolute(target) || target.startsWith('~') || !directories) return [undefined];
  return directories;
}

/**
 * The arguments to check as paths, each marked when it follows `--` (an operand, whatever its
 * spelling); `find` with no starting point searches `.`.
 */
function argumentsOf(entry: ShellCommandAnalysis): Array<{ word: string; operand: boolean }> {
  let args = entry.argv.slice(1);
  if (path.posix.basename(entry.argv[0] ?? '') === 'find') {
    const firstExpression = args.findIndex(
      (argument) => /^[-(!)]/.test(argument) && !/^-[HLP]$/.test(argument),
    );
    const operands = (firstExpression === -1 ? args : args.slice(0, firstExpression)).filter(
      (argument) => !/^-[HLP]$/.test(argument),
    );
    if (operands.length === 0) args = ['.', ...args];
  }
  const separator = args.indexOf('--');
  return args.map((word, index) => ({ word, operand: separator !== -1 && index > separator }));
}

function commandRules(rules: PermissionRule[]) {
  return rules
    .filter((rule) => rule.specifier !== undefined)
    .map((rule) => ({ rule, specifier: parseCommandSpecifier(rule.specifier as string) }));
}

export function processRelativeReason(normalized: string): string {
  return `names ${normalized}, which points somewhere else in each process, so path deny rules cannot be checked`;
}
