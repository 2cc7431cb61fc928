import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type DiscoveredRepository,
  discoverRepository,
  firstActiveGitKey,
  gitConfigReferences,
} from './git-repository-config.js';
import { PACKAGE_MANAGERS } from './shell/program-semantics.js';
import type { TrustedFileState } from './trusted-files.js';
import { realWorkspace } from './workspace-path.js';

/** What a rule for a program can rely on: which workspace files a person trusted. */
export interface WorkspaceTrust {
  workspace: string;
  /** True when no tool may write the absolute path (Quiver's protected list). */
  isProtected(absolutePath: string): boolean;
  /** The trust record's word on a file (pins, and grants made in this session). */
  fileState(absolutePath: string): TrustedFileState;
}

/**
 * Why a program's rule cannot allow it now: it would read configuration or code from the
 * workspace that is neither write-protected nor pinned by a person. `files` are what a grant
 * pins (empty when pinning cannot make it safe, as for a planted repository).
 */
export interface UntrustedInput {
  reason: string;
  program: string;
  files: string[];
}

const RECURSIVE_OPTIONS = /^(-r|--recursive|--workspaces|--ws|-w|--workspace(=.*)?|--filter(=.*)?|-F)$/;
const MAX_PACKAGE_SCAN = 2000;
const PYTHONS = /^python(\d+(\.\d+)?)?$/;
const MAKES = new Set(['make', 'gmake']);

/** Files npm, pnpm and yarn read as configuration or code from each directory up the tree. */
const PACKAGE_FILES = [
  'package.json',
  '.npmrc',
  'pnpm-workspace.yaml',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnp.cjs',
  '.pnp.loader.mjs',
];
/** Directories whose files yarn runs (`yarnPath`, plugins). */
const PACKAGE_CODE_DIRECTORIES = [path.join('.yarn', 'releases'), path.join('.yarn', 'plugins')];
/** Configuration files that are code, of tools commonly run through npx / pnpm exec. */
const TOOL_CONFIGURATION: ReadonlyMap<string, RegExp> = new Map([
  ['eslint', /^(eslint\.config\.[cm]?[jt]s|\.eslintrc(\.[cm]?js|\.json|\.ya?ml)?)$/],
  ['prettier', /^(prettier\.config\.[cm]?[jt]s|\.prettierrc(\.[cm]?[jt]s|\.json5?|\.ya?ml|\.toml)?)$/],
  ['tsc', /^$/],
]);
const PROGRAM_FILES: ReadonlyMap<string, readonly string[]> = new Map([
  [
    'cargo',
    [
      path.join('.cargo', 'config.toml'),
      path.join('.cargo', 'config'),
      'rust-toolchain',
      'rust-toolchain.toml',
    ],
  ],
  ['go', ['go.work', 'go.mod', 'go.env']],
  ['direnv', ['.envrc', '.env']],
]);

/**
 * For a program that reads configuration or code from where it runs (git's repository discovery,
 * configuration, hooks and attributes drivers; npm/pnpm/yarn package files and `.npmrc`; make's
 * makefiles; `python -m` modules; cargo, go and direnv files), the first such input that a person
 * did not trust: inside the workspace, not write-protected, and not pinned as it is. Undefined
 * when every input is trusted.
 */
export function untrustedProgramInputs(
  argv: readonly string[],
  directories: readonly string[] | null,
  trust: WorkspaceTrust,
): UntrustedInput | undefined {
  const program = path.posix.basename(argv[0] ?? '');
  if (
    program !== 'git' &&
    !PACKAGE_MANAGERS.has(program) &&
    !MAKES.has(program) &&
    !PYTHONS.test(program) &&
    !PROGRAM_FILES.has(program)
  )
    return undefined;
  const root = realWorkspace(trust.workspace);
  const starts = (directories ?? ['.']).map((directory) =>
    directory === '.' ? root : realDirectory(path.resolve(root, directory)),
  );
  if (program === 'git') return untrustedGitInputs(starts, root, trust);
  const files = new Set<string>();
  if (PACKAGE_MANAGERS.has(program)) {
    for (const start of starts) for (const file of packageFiles(start, root)) files.add(file);
    if (argv.some((word) => RECURSIVE_OPTIONS.test(word)))
      for (const file of workspacePackageFiles(root)) files.add(file);
    const tool = runTool(program, argv);
    const pattern = tool === undefined ? undefined : TOOL_CONFIGURATION.get(tool);
    if (pattern)
      for (const start of starts) for (const file of matchingUpTree(start, root, pattern)) files.add(file);
  } else if (MAKES.has(program)) {
    for (const start of starts) for (const file of makeFiles(argv, start, root)) files.add(file);
  } else if (PYTHONS.test(program)) {
    // `python -m` puts the working directory first on sys.path: every module or package there
    // shadows one of the same name, the standard library's included (`unittest.py`, `json/`).
    if (argv.some((word, index) => index > 0 && /^-[a-zA-Z]*m/.test(word)))
      for (const start of starts) for (const file of pythonModules(start)) files.add(file);
  } else {
    const names = PROGRAM_FILES.get(program) as readonly string[];
    for (const start of starts)
      for (const directory of ancestorsWithin(start, root))
        for (const name of names) files.add(path.join(directory, name));
  }
  return firstUntrusted([...files], root, trust, program);
}

function untrustedGitInputs(
  starts: string[],
  root: string,
  trust: WorkspaceTrust,
): UntrustedInput | undefined {
  const own = discoverRepository(root);
  for (const start of starts) {
    const found = start === root ? own : discoverRepository(start);
    if (found !== undefined && 'unreadable' in found)
      return {
        reason: `git would read ${shown(found.unreadable, root)}, which is neither a repository nor a gitdir file`,
        program: 'git',
        files: [],
      };
    if (found?.bare && contains(root, found.root))
      return {
        reason: `git would use ${shown(found.root, root)} as a bare repository (it holds HEAD, objects and refs), and read its configuration from there`,
        program: 'git',
        files: [],
      };
    const ownRoot = own !== undefined && !('unreadable' in own) ? own.root : undefined;
    if (found && found.root !== ownRoot) {
      const configs = found.gitDirs.flatMap((gitDir) => [
        path.join(gitDir, 'config'),
        path.join(gitDir, 'config.worktree'),
      ]);
      const active = firstActiveGitKey(configs);
      if (active)
        return {
          reason: `git would run in the repository ${shown(found.root, root)}, not the workspace's own, whose ${shown(active.file, root)} sets ${active.key}, which can run a program`,
          program: 'git',
          files: [],
        };
    }
    const untrusted = firstUntrusted(gitInputs(found), root, trust, 'git');
    if (untrusted) {
      // A repository git finds through a file the model can write is planted state, not code to pin.
      if (found?.via === 'gitfile' && !trust.isProtected(found.gitDirs[0] as string)) untrusted.files = [];
      return untrusted;
    }
  }
  return undefined;
}

/**
 * The files git reads as configuration or code for a repository: each git directory's config,
 * worktree config, hooks, `info/attributes`, `objects/info/alternates` and `commondir`, the
 * `.git` file that led there, the user's global files, and what those configurations include or
 * name as paths (hooks paths, attributes files, programs given by path).
 */
function gitInputs(repository: DiscoveredRepository | undefined): string[] {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const configs = [path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config')];
  const files = [...configs, path.join(xdg, 'git', 'attributes')];
  if (repository) {
    if (repository.via === 'gitfile') files.push(path.join(repository.root, '.git'));
    for (const gitDir of repository.gitDirs) {
      configs.push(path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree'));
      for (const name of [
        'hooks',
        path.join('info', 'attributes'),
        path.join('objects', 'info', 'alternates'),
        'commondir',
      ])
        files.push(path.join(gitDir, name));
    }
  }
  const workTree = repository?.root ?? process.cwd();
  const seen = new Set<string>();
  const pending = [...configs];
  while (pending.length > 0 && seen.size < 64) {
    const config = pending.shift() as string;
    if (seen.has(config)) continue;
    seen.add(config);
    files.push(config);
    for (const reference of gitConfigReferences(config, workTree)) pending.push(reference);
  }
  return files;
}

/**
 * The first existing input inside the workspace that is neither protected nor pinned. Inputs
 * outside the workspace are the person's (no tool writes there); an absent one is read as nothing.
 */
function firstUntrusted(
  files: readonly string[],
  root: string,
  trust: WorkspaceTrust,
  program: string,
): UntrustedInput | undefined {
  const untrusted: Array<{ file: string; state: TrustedFileState }> = [];
  for (const file of files) {
    if (!contains(root, file) || !exists(file) || trust.isProtected(file)) continue;
    const state = trust.fileState(file);
    if (state !== 'pinned') untrusted.push({ file, state });
  }
  const first = untrusted[0];
  if (!first) return undefined;
  const what =
    first.state === 'changed' ? 'changed since a person trusted it' : 'which no person has trusted';
  const more = untrusted.length > 1 ? ` (and ${untrusted.length - 1} more)` : '';
  return {
    reason: `${program} would read ${shown(first.file, root)}${more} as configuration or code, ${what}`,
    program,
    files: untrusted.map((entry) => entry.file),
  };
}

/**
 * The workspace files allowed programs read as configuration or code (package files up from the
 * root and in every workspace package, makefiles, cargo/go/direnv files, tool configurations
 * that are code): what `quiver trust` pins. Only existing files; absolute paths.
 */
export function programConfigurationFiles(workspace: string): string[] {
  const root = realWorkspace(workspace);
  const directories = new Set([root, ...workspacePackageFiles(root).map((file) => path.dirname(file))]);
  const files = new Set<string>();
  for (const directory of directories) {
    for (const file of packageFiles(directory, root)) files.add(file);
    for (const file of makeFiles(['make'], directory, root)) files.add(file);
    for (const file of pythonModules(directory)) files.add(file);
    for (const names of PROGRAM_FILES.values())
      for (const name of names) files.add(path.join(directory, name));
    for (const pattern of TOOL_CONFIGURATION.values())
      for (const file of matchingUpTree(directory, root, pattern)) files.add(file);
  }
  return [...files].filter((file) => contains(root, file) && exists(file) && !isDirectory(file));
}

/** Python modules and packages directly in `directory` (what `python -m` may import from there). */
function pythonModules(directory: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  const modules: string[] = [];
  for (const entry of entries) {
    const file = path.join(directory, entry.name);
    if (/\.(py|pyc|pth|so)$/.test(entry.name) && !entry.isDirectory()) modules.push(file);
    else if (entry.isDirectory() || entry.isSymbolicLink()) {
      const init = path.join(file, '__init__.py');
      if (exists(init)) modules.push(init);
      else if (entry.isSymbolicLink()) modules.push(file);
    }
  }
  return modules;
}

/** The program npx, pnpm exec / dlx or yarn runs, by its first operand. */
function runTool(program: string, argv: readonly string[]): string | undefined {
  const operands = argv.slice(1).filter((word) => !word.startsWith('-'));
  const first = operands[0];
  if (program === 'npx' || program === 'pnpx') return first;
  if (first === 'exec' || first === 'dlx') return operands[1];
  return undefined;
}

function ancestorsWithin(start: string, root: string): string[] {
  const directories: string[] = [];
  let directory = start;
  for (;;) {
    if (contains(root, directory)) directories.push(directory);
    const parent = path.dirname(directory);
    if (parent === directory || !contains(root, parent)) return directories;
    directory = parent;
  }
}

/** What npm, pnpm and yarn read for a script run from `start`: package files up the tree, yarn's code. */
function packageFiles(start: string, root: string): string[] {
  const files: string[] = [];
  for (const directory of ancestorsWithin(start, root)) {
    for (const name of PACKAGE_FILES) files.push(path.join(directory, name));
    for (const name of PACKAGE_CODE_DIRECTORIES) files.push(...filesBelow(path.join(directory, name), 200));
  }
  return files;
}

function matchingUpTree(start: string, root: string, pattern: RegExp): string[] {
  const files: string[] = [];
  for (const directory of ancestorsWithin(start, root)) {
    let names: string[];
    try {
      names = fs.readdirSync(directory);
    } catch {
      continue;
    }
    for (const name of names) if (name !== '' && pattern.test(name)) files.push(path.join(directory, name));
  }
  return files;
}

/** The makefiles make reads: `-f` files (or the default names) after `-C`, and what they include. */
function makeFiles(argv: readonly string[], start: string, root: string): string[] {
  let directory = start;
  const named: string[] = [];
  for (let index = 1; index < argv.length; index++) {
    const word = argv[index] as string;
    const attached = /^-([Cf])(.+)$/.exec(word) ?? /^--(directory|file|makefile)=(.+)$/.exec(word);
    const option = attached?.[1] ?? (/^(-[Cf]|--directory|--file|--makefile)$/.test(word) ? word : undefined);
    if (option === undefined) continue;
    const value = attached?.[2] ?? argv[++index];
    if (value === undefined) continue;
    if (option === 'C' || option === '-C' || option === 'directory' || option === '--directory')
      directory = path.resolve(directory, value);
    else named.push(value);
  }
  const makefiles = (named.length > 0 ? named : ['GNUmakefile', 'makefile', 'Makefile']).map((name) =>
    path.resolve(directory, name),
  );
  const files = [...makefiles];
  for (const makefile of makefiles) {
    let text: string;
    try {
      text = fs.readFileSync(makefile, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const include = /^\s*-?s?include\s+(.+)$/.exec(line);
      if (include?.[1])
        for (const word of include[1].split(/\s+/)) if (word) files.push(path.resolve(directory, word));
    }
  }
  return files.filter((file) => contains(root, file));
}

/** Every package.json of the workspace (for `-r`, `--workspaces`, `--filter`), outside node_modules. */
function workspacePackageFiles(root: string): string[] {
  const files: string[] = [];
  const queue: Array<{ directory: string; depth: number }> = [{ directory: root, depth: 0 }];
  let seen = 0;
  while (queue.length > 0 && seen < MAX_PACKAGE_SCAN) {
    const { directory, depth } = queue.shift() as { directory: string; depth: number };
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen++;
      if (entry.isFile() && entry.name === 'package.json') files.push(path.join(directory, entry.name));
      else if (
        entry.isDirectory() &&
        depth < 4 &&
        entry.name !== 'node_modules' &&
        !entry.name.startsWith('.')
      )
        queue.push({ directory: path.join(directory, entry.name), depth: depth + 1 });
    }
  }
  return files;
}

function filesBelow(directory: string, limit: number): string[] {
  const files: string[] = [];
  const pending = [directory];
  while (pending.length > 0 && files.length < limit) {
    const current = pending.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const child = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(child);
      else files.push(child);
    }
  }
  return files;
}

function realDirectory(directory: string): string {
  try {
    return fs.realpathSync(directory);
  } catch {
    return directory;
  }
}

function contains(root: string, file: string): boolean {
  return file === root || file.startsWith(`${root}/`);
}

function exists(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function shown(file: string, root: string): string {
  const relative = path.relative(root, file);
  return relative === '' ? '.' : relative.startsWith('..') ? file : relative;
}
