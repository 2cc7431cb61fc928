import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Configuration keys git only reads as data: none names a program, a hook directory, a pager, a
 * filter or another file to include. Subsections are written as `*` (`remote.*.url`).
 */
const INERT_KEYS = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.safecrlf',
  'core.eol',
  'core.quotepath',
  'core.checkstat',
  'core.trustctime',
  'core.untrackedcache',
  'core.splitindex',
  'core.commitgraph',
  'core.multipackindex',
  'core.sparsecheckout',
  'core.sparsecheckoutcone',
  'core.compression',
  'core.loosecompression',
  'core.abbrev',
  'remote.*.url',
  'remote.*.pushurl',
  'remote.*.fetch',
  'remote.*.tagopt',
  'remote.*.prune',
  'remote.*.mirror',
  'branch.*.remote',
  'branch.*.merge',
  'branch.*.rebase',
  'branch.*.pushremote',
  'branch.*.description',
  'user.name',
  'user.email',
  'init.defaultbranch',
  'extensions.objectformat',
  'extensions.worktreeconfig',
  'fetch.prune',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'push.autosetupremote',
  'merge.ff',
  'merge.conflictstyle',
  'diff.renames',
  'diff.algorithm',
  'diff.mnemonicprefix',
  'diff.noprefix',
  'diff.context',
  'color.ui',
  'status.short',
  'status.branch',
  'status.showuntrackedfiles',
  'log.date',
  'log.decorate',
  'gc.auto',
  'rerere.enabled',
  'submodule.*.url',
  'submodule.*.active',
]);

/**
 * The first key of a repository's configuration files that is not on the inert list (with its
 * file), or undefined when git would read nothing but data from them.
 */
export function firstActiveGitKey(files: readonly string[]): { file: string; key: string } | undefined {
  for (const file of files) {
    const text = readText(file);
    if (text === undefined) continue;
    for (const { key } of gitConfigEntries(text)) if (!INERT_KEYS.has(key)) return { file, key };
  }
  return undefined;
}

/**
 * Files a configuration file brings in or names as programs, hooks or attributes: `include.path`
 * and `includeIf.*.path` targets, `core.hooksPath`, `core.attributesFile`, `core.fsmonitor`, and
 * every word with a `/` in a key that runs a program (`diff.*.textconv = ./tools/conv`). Relative
 * ones are resolved from the configuration file's directory for includes and from `workTree` for
 * the rest, as git does. What git would read or run from them is only as trusted as they are.
 */
export function gitConfigReferences(file: string, workTree: string): string[] {
  const text = readText(file);
  if (text === undefined) return [];
  const references: string[] = [];
  const home = os.homedir();
  const resolve = (value: string, base: string) =>
    value.startsWith('~/') ? path.join(home, value.slice(2)) : path.resolve(base, value);
  for (const { key, value } of gitConfigEntries(text)) {
    if (value === undefined || value === '') continue;
    if (key === 'include.path' || key === 'includeif.*.path')
      references.push(resolve(value, path.dirname(file)));
    else if (['core.hookspath', 'core.attributesfile', 'core.fsmonitor', 'core.excludesfile'].includes(key)) {
      if (value !== 'true' && value !== 'false') references.push(resolve(value, workTree));
    } else if (!INERT_KEYS.has(key))
      for (const word of value.split(/[\s'"=;|&()<>]+/))
        if (word.includes('/') && !word.includes('://')) references.push(resolve(word, workTree));
  }
  return references;
}

interface GitConfigEntry {
  /** `section.key` or `section.*.key`, lowercased; anything unreadable as `unreadable line "…"`. */
  key: string;
  value?: string;
}

function gitConfigEntries(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section = '';
  for (const raw of text.replace(/\\\r?\n/g, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(?:[#;].*)?$/.exec(line);
    if (header) {
      const name = (header[1] as string).toLowerCase();
      const dotted = name.indexOf('.');
      section =
        header[0].includes('"') || dotted !== -1 ? `${dotted === -1 ? name : name.slice(0, dotted)}.*` : name;
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (entry && section !== '')
      entries.push({ key: `${section}.${(entry[1] as string).toLowerCase()}`, value: unquote(entry[2]) });
    else entries.push({ key: `unreadable line "${line}"` });
  }
  return entries;
}

/** A value as git reads it, near enough to find the paths in it: quotes removed, a trailing comment cut. */
function unquote(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let result = '';
  let quoted = false;
  for (let index = 0; index < value.length; index++) {
    const char = value[index] as string;
    if (char === '"') quoted = !quoted;
    else if (char === '\\') result += value[++index] ?? '';
    else if (!quoted && (char === '#' || char === ';')) break;
    else result += char;
  }
  return result.trim();
}

/** A repository git would use, as git's own discovery finds it. */
export interface DiscoveredRepository {
  /** The directory git runs the work tree from (for a bare repository, the git directory itself). */
  root: string;
  /** The git directory, then its common directory when it has one (worktrees, submodules). */
  gitDirs: string[];
  bare: boolean;
  /** How it was found: a `.git` directory, a `.git` file's `gitdir:` line, or a bare directory. */
  via: 'directory' | 'gitfile' | 'bare';
}

/**
 * The repository git finds from `directory`, walking up as `setup_git_directory` does: in each
 * directory, first `.git` (a directory that looks like a git directory, or a file with a
 * `gitdir:` line), then the directory itself when it looks like a bare repository (`HEAD`,
 * `objects/` and `refs/`, or a `commondir`). `unreadable` names a `.git` file git would stop at
 * with an error. A bare repository counts even though Quiver's runs of git refuse implicit ones
 * (`safe.bareRepository=explicit`): the model is proven against git as the person runs it too.
 * Looking "too much like" a repository is on the safe side: it can only make a command ask.
 */
export function discoverRepository(
  directory: string,
  ceilings: readonly string[] = [],
): DiscoveredRepository | { unreadable: string } | undefined {
  let current = path.resolve(directory);
  for (;;) {
    const dotGit = path.join(current, '.git');
    const kind = entryKind(dotGit);
    if (kind === 'directory' && looksLikeGitDirectory(dotGit))
      return withCommonDir({ root: current, gitDirs: [dotGit], bare: false, via: 'directory' });
    if (kind === 'file') {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
      if (!pointer?.[1]) return { unreadable: dotGit };
      const gitDir = path.resolve(current, pointer[1]);
      return withCommonDir({ root: current, gitDirs: [gitDir], bare: false, via: 'gitfile' });
    }
    if (kind === 'other') return { unreadable: dotGit };
    if (looksLikeGitDirectory(current))
      return withCommonDir({ root: current, gitDirs: [current], bare: true, via: 'bare' });
    const parent = path.dirname(current);
    if (parent === current || ceilings.includes(parent)) return undefined;
    current = parent;
  }
}

function withCommonDir(repository: DiscoveredRepository): DiscoveredRepository {
  const gitDir = repository.gitDirs[0] as string;
  const common = readText(path.join(gitDir, 'commondir'))?.trim();
  if (common) repository.gitDirs.push(path.resolve(gitDir, common));
  return repository;
}

/** git's `is_git_directory`, read generously: a `HEAD`, and `objects/` with `refs/` or a `commondir`. */
function looksLikeGitDirectory(directory: string): boolean {
  if (entryKind(path.join(directory, 'HEAD')) === undefined) return false;
  if (entryKind(path.join(directory, 'commondir')) !== undefined) return true;
  return (
    entryKind(path.join(directory, 'objects')) !== undefined &&
    entryKind(path.join(directory, 'refs')) !== undefined
  );
}

function entryKind(file: string): 'directory' | 'file' | 'other' | undefined {
  // Without exceptions: most of the names looked for do not exist, and a thrown error costs.
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat) return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
    // A dangling link is something git would trip over: not nothing.
    return fs.lstatSync(file, { throwIfNoEntry: false }) ? 'other' : undefined;
  } catch {
    return 'other';
  }
}

function readText(file: string): string | undefined {
  try {
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
