import {
  commandWords,
  counted,
  listWithLimit,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

/** Commands whose output is one path a line. */
const PATH_LISTING =
  /(?:^|\s|;)(?:find|fd|fdfind|locate|git\s+ls-files|git\s+ls-tree\s+(?:.*\s)?--name-only|git\s+diff\s+(?:.*\s)?--name-only|rg\s+(?:.*\s)?--files|tree\s+-fi|tar\s+(?:-?[a-zA-Z]*t[a-zA-Z]*|--list)|unzip\s+-Z1|zipinfo\s+-1|jar\s+-?t\w*|dpkg(?:-query)?\s+(?:-L|--listfiles)|rpm\s+-ql)(?:\s|$)/;
/** Whatever the command, lines that are all absolute or `./` paths are a listing. */
const PATH_LINE = /^\.?\/\S*$/;
/**
 * A long listing's row (`tar -tv`, `find -ls`, `ls -lR`): permissions first, the path last after a
 * time, or a date with a year (`-rw-r--r-- root/root 8709 2023-01-14 13:54 ./libelf1/copyright`).
 */
const LONG_ROW =
  /^[-dlcbps][rwxsStT-]{9}[.+@]?\s.*?\s(?:\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?|[A-Z][a-z]{2}\s+\d{1,2}\s+\d{4})\s+(.+?)(?: -> .*)?$/;
/** `find: '/proc/1/fd': Permission denied` and the like: kept whole. */
const ERROR_LINE = /^[\w.-]+: .*(?:denied|No such file|not found|error|Error|loop)/;
const MIN_PATHS = 50;
/** Directories that hold one directory each, shown together, at most. */
const MAX_COLLAPSED = 4;
const MAX_ERRORS_SHOWN = 20;
/** Top-level entries named whatever the budget; more while twice the budget lasts. */
const MAX_OTHERS_NAMED = 20;
/** A top-level directory with at most this many paths has them named. */
const SMALL_GROUP_NAMED = 5;

function looksLikePath(line: string): boolean {
  return line.length > 0 && line.length < 4096 && !line.includes('\t') && !/^\s/.test(line);
}

/** The directory every path starts with (`/usr` for `find /usr`, `.` for `find .`, '' when none). */
function commonRoot(paths: readonly string[]): string {
  let root = (paths[0] as string).split('/');
  for (const path of paths) {
    const parts = path.split('/');
    let same = 0;
    while (same < root.length && same < parts.length && root[same] === parts[same]) same++;
    root = root.slice(0, same);
    if (root.length === 0) break;
  }
  return root.join('/');
}

interface Group {
  name: string;
  count: number;
  children: Map<string, number>;
}

function groupsUnder(root: string, paths: readonly string[]): Group[] {
  const groups = new Map<string, Group>();
  for (const path of paths) {
    const prefix = root === '' ? (path.startsWith('/') ? '/' : '') : `${root}/`;
    if (!path.startsWith(prefix)) continue;
    const [top, child] = path.slice(prefix.length).split('/');
    if (top === undefined || top === '') continue;
    const name = `${prefix}${top}`;
    const group = groups.get(name) ?? { name, count: 0, children: new Map<string, number>() };
    group.count++;
    if (child !== undefined && child !== '') group.children.set(child, (group.children.get(child) ?? 0) + 1);
    groups.set(name, group);
  }
  // A directory holding one directory (`com/` holding only `shop/`) is shown as the two together,
  // with what the inner one holds: `com/shop (489): api 61, auth 61, …`.
  return [...groups.values()].map((group) => {
    let current = group;
    for (let depth = 0; depth < MAX_COLLAPSED && current.children.size === 1; depth++) {
      const [only] = current.children.keys();
      const inner = groupsUnder(current.name, paths).find((each) => each.name === `${current.name}/${only}`);
      if (!inner || inner.children.size === 0 || inner.count < current.count - 1) break;
      current = { ...inner, count: current.count };
    }
    return current;
  });
}

function groupLine(group: Group, childrenShown: number): string {
  const line = `${group.name} (${group.count.toLocaleString('en-US')})`;
  if (childrenShown === 0) return line;
  // Children with one entry are files (or empty directories): the count says enough.
  const biggest = [...group.children.entries()]
    .filter(([, count]) => count > 1)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const listed = biggest
    .slice(0, childrenShown)
    .map(([name, count]) => `${name} ${count.toLocaleString('en-US')}`);
  if (listed.length === 0) return line;
  const more = biggest.length > childrenShown ? `, … ${biggest.length - childrenShown} more` : '';
  return `${line}: ${listed.join(', ')}${more}`;
}

/**
 * `find`, `fd`, `git ls-files`, `rg --files`, `tar -t`, `dpkg -L`, any output of paths one a line,
 * and long listings of paths (`tar -tv`, `find -ls`): how many paths, every top-level directory under the
 * common root with its count (and its biggest subdirectories while the budget lasts), errors, and
 * the first paths. A top-level directory is never dropped for room.
 */
/** The paths of a long listing whose rows name paths in directories, or undefined. */
function longListingPaths(lines: readonly string[]): string[] | undefined {
  const content = lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const paths = content.map((line) => LONG_ROW.exec(line)?.[1]).filter((path) => path !== undefined);
  if (paths.length < MIN_PATHS || paths.length < content.length * 0.9) return undefined;
  // `ls -l` of one directory names files, not paths: the table reducer keeps its rows.
  return paths.filter((path) => path.includes('/')).length >= paths.length / 2 ? paths : undefined;
}

export const reducePathList: Recognizer = (input: RecognizerInput) => {
  const long = longListingPaths(input.lines);
  const content = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const pathLines = content.filter((line) => PATH_LINE.test(line)).length;
  const byContent = content.length >= MIN_PATHS && pathLines >= content.length * 0.95;
  if (long === undefined && !byContent && !PATH_LISTING.test(commandWords(input.command))) return undefined;
  const errors = input.lines.filter((line) => ERROR_LINE.test(line));
  const listed =
    long ??
    input.lines.filter(
      (line) => !WINDOW_CUT_LINE.test(line) && !ERROR_LINE.test(line) && looksLikePath(line),
    );
  if (listed.length < MIN_PATHS || listed.length < (input.lines.length - errors.length) * 0.9)
    return undefined;
  // In a listing of paths, a line of another shape (`exit=0` echoed after it, a
  // tool's note) is not a top-level entry: it is shown apart and the tree is read without it.
  const pathShaped = (line: string) => PATH_LINE.test(line) || line.includes('/');
  const shaped = long ?? listed.filter(pathShaped);
  const paths = shaped.length >= listed.length * 0.95 ? shaped : listed;
  const strays = paths === listed ? [] : listed.filter((line) => !pathShaped(line));
  const root = commonRoot(paths);
  const groups = groupsUnder(root, paths);
  // A top-level entry with nothing under it is a file (or an empty directory): named, not counted.
  const directories = groups.filter((group) => group.children.size > 0);
  const others = groups.filter((group) => group.children.size === 0).map((group) => group.name);
  const where = root === '' ? '' : ` under ${root}`;
  const heading = `${counted(paths.length, 'path', input.partial)}${where}: ${directories.length} top-level director${directories.length === 1 ? 'y' : 'ies'}${others.length > 0 ? `, ${others.length} other top-level entr${others.length === 1 ? 'y' : 'ies'}` : ''}`;
  let groupLines = directories.map((group) => groupLine(group, 0));
  // Spell out the biggest subdirectories of each directory while half the budget lasts.
  for (const childrenShown of [3, 6, 12]) {
    const wider = directories.map((group) => groupLine(group, childrenShown));
    if (heading.length + wider.reduce((sum, line) => sum + line.length + 1, 0) > input.budget / 2) break;
    groupLines = wider;
  }
  // A top-level directory with few paths beside big ones (a project's own files among a library's,
  // in `tsc --listFiles`) is where a reader looks: its paths are named.
  if (directories.length > 1)
    groupLines = groupLines.map((line, index) => {
      const group = directories[index] as Group;
      if (group.count > SMALL_GROUP_NAMED) return line;
      const prefix = `${group.name}/`;
      return `${group.name} (${group.count}): ${paths.filter((path) => path.startsWith(prefix)).join(', ')}`;
    });
  // Each top-level entry is a record's key: all are named while twice the budget lasts.
  let othersNamed = 0;
  for (let length = 0; othersNamed < others.length; othersNamed++) {
    length += (others[othersNamed] as string).length + 2;
    if (othersNamed >= MAX_OTHERS_NAMED && length > input.budget * 2) break;
  }
  const otherLines = others.length > 0 ? [`other entries: ${listWithLimit(others, othersNamed)}`] : [];
  let used = [heading, ...groupLines, ...otherLines].reduce((sum, line) => sum + line.length + 1, 0);
  const errorLines = errors.slice(0, MAX_ERRORS_SHOWN);
  if (errors.length > MAX_ERRORS_SHOWN)
    errorLines.push(`… and ${errors.length - MAX_ERRORS_SHOWN} more errors`);
  used += errorLines.reduce((sum, line) => sum + line.length + 1, 0);
  const sample: string[] = [];
  for (const path of paths) {
    if (used + path.length + 1 > input.budget) break;
    sample.push(path);
    used += path.length + 1;
  }
  return [
    heading,
    ...groupLines,
    ...otherLines,
    ...(errorLines.length > 0
      ? [`${errors.length} error${errors.length === 1 ? '' : 's'}:`, ...errorLines]
      : []),
    ...(strays.length > 0 ? [`other lines: ${listWithLimit(strays, MAX_ERRORS_SHOWN)}`] : []),
    ...(sample.length > 0 ? [`first ${sample.length} paths:`, ...sample] : []),
    ...(sample.length < paths.length ? [`[… ${paths.length - sample.length} more paths not shown]`] : []),
    // The last path as printed: where a listing in its own order ends.
    ...(sample.length < paths.length - 1 ? [`last path: ${paths.at(-1)}`] : []),
  ].join('\n');
};

/** A `--name-status` row: a status letter (with a similarity score for R and C), a tab, the path(s). */
const NAME_STATUS_ROW = /^([ACDMRTUXB])(\d{0,3})\t(.+)$/;
const STATUS_NAMES: Record<string, string> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type changed',
  U: 'unmerged',
  X: 'unknown',
  B: 'broken',
};

/**
 * `git diff --name-status` (and `git log`/`git show --name-status` without the commits): the count
 * of files by status, every row that is not a plain modification or addition (deleted, renamed,
 * copied, unmerged: the rows a reader looks for) while twice the budget lasts, then the paths read
 * as a listing, with every top-level directory and its count.
 */
export const reduceNameStatus: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const content = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const rows = content.filter((line) => NAME_STATUS_ROW.test(line));
  if (rows.length < MIN_PATHS || rows.length < content.length * 0.9) return undefined;
  const byStatus = new Map<string, number>();
  const paths: string[] = [];
  for (const row of rows) {
    const [, status, , rest] = NAME_STATUS_ROW.exec(row) as RegExpExecArray;
    byStatus.set(status as string, (byStatus.get(status as string) ?? 0) + 1);
    paths.push((rest as string).split('\t').at(-1) as string);
  }
  const counts = [...byStatus.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(
      ([status, count]) => `${count.toLocaleString('en-US')} ${STATUS_NAMES[status] ?? status} (${status})`,
    );
  const heading = `${counted(rows.length, 'file', input.partial)}: ${counts.join(', ')}`;
  const rare = rows.filter((row) => !/^[MA]\t/.test(row));
  const rareShown: string[] = [];
  let used = heading.length + 1;
  for (const row of rare) {
    if (rareShown.length > 0 && used + row.length + 1 > input.budget * 2) break;
    rareShown.push(row);
    used += row.length + 1;
  }
  const rareLines =
    rare.length === 0
      ? []
      : [
          `${rare.length} not modified or added:`,
          ...rareShown,
          ...(rareShown.length < rare.length ? [`[… ${rare.length - rareShown.length} more not shown]`] : []),
        ];
  const others = content.filter((line) => !NAME_STATUS_ROW.test(line));
  const listing = reducePathList({
    ...input,
    command: 'git ls-files',
    lines: paths,
    output: paths.join('\n'),
    budget: Math.max(input.budget - used, input.budget / 2),
  });
  // The listing's sample of paths is shown as the rows were printed, status first.
  const rowOf = new Map(paths.map((path, index) => [path, rows[index] as string]));
  let inSample = false;
  const listed = (listing ?? '').split('\n').map((line) => {
    if (/^first \d+ paths:$/.test(line)) inSample = true;
    else if (line.startsWith('[… ')) inSample = false;
    else if (line.startsWith('last path: '))
      return `last: ${rowOf.get(line.slice('last path: '.length)) ?? line}`;
    else if (inSample) return rowOf.get(line) ?? line;
    return line;
  });
  return [
    heading,
    ...rareLines,
    ...(others.length > 0 ? [`other lines: ${listWithLimit(others, MAX_ERRORS_SHOWN)}`] : []),
    ...(listing === undefined ? rows.slice(0, 20) : listed),
  ].join('\n');
};
