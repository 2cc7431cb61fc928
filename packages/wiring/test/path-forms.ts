import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The fixture every path form is tried against: the same file name in three directories, each
 * file naming itself, and `lnk -> sub/deep`, so `lnk/..` is `sub` for the kernel but the
 * workspace root for anyone who folds `..` before following the link.
 */
export const FIXTURE_DIRECTORIES = ['.', 'sub', 'sub/deep', '~'] as const;

export function fileContent(relative: string): string {
  return `shared line\nID ${relative}\n`;
}

/** Recreates the fixture in `root` (everything but the data directory is replaced). */
export function resetFixture(root: string, outside: string): void {
  for (const entry of readdirSync(root))
    if (entry !== '.quiver') rmSync(path.join(root, entry), { recursive: true });
  rmSync(outside, { recursive: true, force: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'a.txt'), fileContent('outside/a.txt'));
  writeFileSync(path.join(outside, 'marker-outside.txt'), 'marker\n');
  for (const directory of FIXTURE_DIRECTORIES) {
    const absolute = path.join(root, directory);
    mkdirSync(absolute, { recursive: true });
    const relative = directory === '.' ? 'a.txt' : `${directory}/a.txt`;
    writeFileSync(path.join(absolute, 'a.txt'), fileContent(relative));
    writeFileSync(path.join(absolute, `marker-${markerName(directory)}.txt`), 'marker\n');
  }
  symlinkSync('sub/deep', path.join(root, 'lnk'));
}

export function markerName(directory: string): string {
  return directory === '.' ? 'root' : directory === '~' ? 'tilde' : directory.replaceAll('/', '-');
}

/** Every regular file under the given directories and its content, keyed `label/relative`. */
export function snapshot(directories: Record<string, string>): Map<string, string> {
  const files = new Map<string, string>();
  for (const [label, root] of Object.entries(directories)) {
    const walk = (relative: string) => {
      for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (child === '.quiver') continue;
        if (entry.isDirectory()) walk(child);
        else if (entry.isFile()) files.set(`${label}/${child}`, readFileSync(path.join(root, child), 'utf8'));
      }
    };
    walk('');
  }
  return files;
}

/** Files that appeared, disappeared or changed between two snapshots. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

/**
 * A path form: how the argument is written for a target (a file name, or '' for a directory),
 * and the directory the kernel resolves it into, or 'refused' when no tool may open it.
 */
export interface PathForm {
  name: string;
  write: (target: string, workspace: string, outside: string) => string;
  file: 'sub' | 'root' | 'refused';
  directory: 'sub' | 'root' | 'refused';
}

export const PATH_FORMS: readonly PathForm[] = [
  { name: 'a leading ~', write: (target) => `~/${target}`, file: 'refused', directory: 'refused' },
  { name: 'a leading ~user', write: (target) => `~root/${target}`, file: 'refused', directory: 'refused' },
  {
    name: '.. after a symlinked directory',
    write: (target) => `lnk/../${target}`,
    file: 'sub',
    directory: 'sub',
  },
  { name: '. segments', write: (target) => `./sub/./${target}`, file: 'sub', directory: 'sub' },
  { name: 'a trailing slash', write: (target) => `sub/${target}/`, file: 'refused', directory: 'sub' },
  {
    name: 'an absolute path inside',
    write: (target, workspace) => `${workspace}/sub/${target}`,
    file: 'sub',
    directory: 'sub',
  },
  {
    name: 'an absolute path through a symlink and ..',
    write: (target, workspace) => `${workspace}/lnk/../${target}`,
    file: 'sub',
    directory: 'sub',
  },
  {
    name: 'an absolute path outside',
    write: (target, _workspace, outside) => `${outside}/${target}`,
    file: 'refused',
    directory: 'refused',
  },
  { name: 'a plain relative path', write: (target) => target || '.', file: 'root', directory: 'root' },
];
