import fs from 'node:fs';
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
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const key of configKeys(text)) if (!INERT_KEYS.has(key)) return { file, key };
  }
  return undefined;
}

/** Keys of a git config file as `section.key` or `section.*.key`, lowercased; anything unreadable is reported as is. */
function configKeys(text: string): string[] {
  const keys: string[] = [];
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
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$|[#;])/.exec(line);
    keys.push(
      entry && section !== ''
        ? `${section}.${(entry[1] as string).toLowerCase()}`
        : `unreadable line "${line}"`,
    );
  }
  return keys;
}

/** The repository git uses from `directory`: its top directory and git directories, or undefined outside one. */
export function findRepository(directory: string): { root: string; gitDirs: string[] } | undefined {
  let current = directory;
  for (;;) {
    const gitDir = resolveGitDir(path.join(current, '.git'));
    if (gitDir) {
      const gitDirs = [gitDir];
      const common = readTrimmed(path.join(gitDir, 'commondir'));
      if (common) gitDirs.push(path.resolve(gitDir, common));
      return { root: current, gitDirs };
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function resolveGitDir(dotGit: string): string | undefined {
  try {
    const stat = fs.statSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return pointer?.[1] ? path.resolve(path.dirname(dotGit), pointer[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

function readTrimmed(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
