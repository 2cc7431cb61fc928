import { patchFiles, patchTotals, reduceGitPatch, summaryLine } from './git-diff.js';
import {
  commandWords,
  counted,
  listWithLimit,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

function gitSubcommand(command: string): string | undefined {
  return /(?:^|\s|;)git\s+(?:-C\s+\S+\s+|-c\s+\S+\s+|--no-pager\s+)*(status|diff|log|show|merge|pull|rebase|cherry-pick|revert)\b/.exec(
    commandWords(command),
  )?.[1];
}

interface StatusGroups {
  header: string[];
  staged: string[];
  unstaged: string[];
  untracked: string[];
  conflicted: string[];
}

function formatStatus(groups: StatusGroups, budget: number): string {
  // About 30 characters a name: a status that fits the budget is listed whole.
  const limit = Math.max(20, Math.floor(budget / 30));
  const lines = [...groups.header];
  const section = (label: string, entries: string[]) => {
    if (entries.length === 0) return;
    // The rarer kinds of change first (a deletion among many modifications), each kind in the
    // order printed: what is cut for room is the commonest kind's tail.
    const kindOf = (entry: string) =>
      /^(?:modified|deleted|renamed|new file|typechange|copied) /.exec(entry)?.[0] ?? '';
    const kinds = new Map<string, number>();
    for (const entry of entries) kinds.set(kindOf(entry), (kinds.get(kindOf(entry)) ?? 0) + 1);
    const ordered =
      entries.length > limit
        ? entries
            .map((entry, index) => ({ entry, index, kind: kinds.get(kindOf(entry)) ?? 0 }))
            .sort((a, b) => a.kind - b.kind || a.index - b.index)
            .map(({ entry }) => entry)
        : entries;
    if (ordered.length <= limit) {
      lines.push(`${label} (${entries.length}): ${ordered.join(', ')}`);
      return;
    }
    // What the limit leaves out is named by directory, with its count, and its last path.
    const rest = ordered.slice(limit);
    const directories = new Map<string, number>();
    for (const entry of rest) {
      const path = entry.replace(/^(?:modified|deleted|renamed|new file|typechange|copied) +/, '');
      const directory = path.includes('/') ? `${path.slice(0, path.lastIndexOf('/'))}/` : './';
      directories.set(directory, (directories.get(directory) ?? 0) + 1);
    }
    const where = [...directories].map(([directory, count]) => `${directory} (${count})`);
    lines.push(
      `${label} (${entries.length}): ${ordered.slice(0, limit).join(', ')}, … and ${rest.length} more in ${listWithLimit(where, limit)}; last: ${rest.at(-1)}`,
    );
  };
  section('conflicted', groups.conflicted);
  section('staged', groups.staged);
  section('not staged', groups.unstaged);
  section('untracked', groups.untracked);
  if (lines.length === groups.header.length) lines.push('nothing to commit, working tree clean');
  return lines.join('\n');
}

function reduceLongStatus(lines: readonly string[], budget: number): string | undefined {
  const groups: StatusGroups = { header: [], staged: [], unstaged: [], untracked: [], conflicted: [] };
  let current: string[] | undefined;
  for (const line of lines) {
    if (/^Changes to be committed:/.test(line)) current = groups.staged;
    else if (/^Changes not staged for commit:/.test(line)) current = groups.unstaged;
    else if (/^Untracked files:/.test(line)) current = groups.untracked;
    else if (/^Unmerged paths:/.test(line)) current = groups.conflicted;
    else if (line.startsWith('\t') && current) {
      const entry = line.slice(1).trim();
      const match = /^([a-z ]+):\s+(.+)$/.exec(entry);
      current.push(match && current !== groups.untracked ? `${match[1]?.trim()} ${match[2]}` : entry);
    } else if (
      /^(On branch|HEAD detached|Your branch|You have unmerged|You are currently|nothing to commit|no changes added)/.test(
        line,
      )
    ) {
      if (!/^(nothing to commit|no changes added)/.test(line)) groups.header.push(line);
    }
  }
  if (groups.header.length === 0 && current === undefined) return undefined;
  return formatStatus(groups, budget);
}

function reducePorcelainStatus(lines: readonly string[], budget: number): string | undefined {
  const groups: StatusGroups = { header: [], staged: [], unstaged: [], untracked: [], conflicted: [] };
  for (const line of lines) {
    if (line.length === 0) continue;
    if (line.startsWith('## ')) {
      groups.header.push(`branch ${line.slice(3)}`);
      continue;
    }
    const match = /^([ MADRCUT?!])([ MADRCUT?!]) (.+)$/.exec(line);
    if (!match) return undefined;
    const [, index, worktree, file] = match as unknown as [string, string, string, string];
    if (index === '?' && worktree === '?') groups.untracked.push(file);
    else if (
      index === 'U' ||
      worktree === 'U' ||
      (index === 'A' && worktree === 'A') ||
      (index === 'D' && worktree === 'D')
    )
      groups.conflicted.push(file);
    else {
      if (index !== ' ' && index !== '!') groups.staged.push(`${index} ${file}`);
      if (worktree !== ' ' && worktree !== '!') groups.unstaged.push(`${worktree} ${file}`);
    }
  }
  return formatStatus(groups, budget);
}

/** Every file of a `--stat`, without the padding and the +/− graph: the count says as much. */
/** Renamed files named in a `git log --stat` past its budget. */
const MAX_RENAMES_KEPT = 50;
const STAT_ROW = /^ (\S.*?) +\| +(\d+|Bin.*?)(?: [+-]*)?$/;

function reduceDiffStat(lines: readonly string[]): string | undefined {
  const files = lines.flatMap((line) => {
    const match = STAT_ROW.exec(line);
    return match ? [`${match[1]} ${match[2]}`] : [];
  });
  const summary = lines.find((line) => /^ \d+ files? changed/.test(line));
  if (!summary || files.length === 0) return undefined;
  return [summary.trim(), ...files].join('\n');
}

interface LoggedCommit {
  hash: string;
  author: string;
  subject?: string;
  lines: string[];
}

function commitsOf(lines: readonly string[]): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  let current: LoggedCommit | undefined;
  for (const line of lines) {
    const commit = /^commit ([0-9a-f]{7,40})/.exec(line);
    if (commit) {
      // The hash as printed: a reader may search for it, or paste it, whole.
      current = { hash: commit[1] as string, author: '', lines: [] };
      commits.push(current);
    } else if (current && current.author === '' && line.startsWith('Author:')) {
      current.author = line
        .slice('Author:'.length)
        .replace(/<[^>]*>/, '')
        .trim();
    } else if (current && current.subject === undefined && /^ {4}\S/.test(line)) {
      current.subject = line.trim();
    } else if (current) {
      current.lines.push(line);
    }
  }
  return commits;
}

function commitLine(commit: LoggedCommit): string {
  return `${commit.hash} ${commit.subject ?? ''} (${commit.author})`;
}

/**
 * `git log -p` / `--stat`: every commit's hash, subject and author, with its changed files and
 * their counts while the budget lasts; the hunks are left to `git show <hash>`.
 */
function reduceLogWithChanges(commits: readonly LoggedCommit[], budget: number, partial?: string): string {
  const keys = commits.map((commit) => {
    const files = patchFiles(commit.lines);
    const stat = commit.lines.find((line) => /^ \d+ files? changed/.test(line))?.trim();
    const cut = commit.lines.some((line) => WINDOW_CUT_LINE.test(line)) ? partial : undefined;
    // git's own summary line, as printed, when `--stat` gave one; else the totals of the patch.
    const change =
      stat ??
      (files.length > 0 ? patchTotals(files, cut, `git show --stat ${commit.hash} counts them`) : undefined);
    // A `--stat` without the patch: its rows (`path | 3 ++-`), without the padding and the graph.
    const statRows =
      files.length > 0
        ? []
        : commit.lines.flatMap((line) => {
            const match = STAT_ROW.exec(line);
            return match ? [`${match[1]} ${match[2]}`] : [];
          });
    return { key: `${commitLine(commit)}${change ? ` — ${change}` : ''}`, files, statRows };
  });
  let used = keys.reduce((sum, { key }) => sum + key.length + 1, 0);
  const lines = [`${counted(commits.length, 'commit', partial)}:`];
  let renamesKept = 0;
  for (const { key, files, statRows } of keys) {
    lines.push(key);
    const listed: string[] = [];
    for (const row of statRows) {
      const line = `  ${row}`;
      // A rename (`{src => lib}/x.js`) is where a file's history turns: kept whatever the budget,
      // up to MAX_RENAMES_KEPT in the log.
      const rename = row.includes(' => ') && renamesKept < MAX_RENAMES_KEPT;
      if (!rename && used + line.length + 1 > budget) continue;
      if (rename) renamesKept++;
      listed.push(line);
      used += line.length + 1;
    }
    if (listed.length < statRows.length)
      lines.push(...listed, `  … and ${statRows.length - listed.length} more files`);
    else lines.push(...listed);
    listed.length = 0;
    for (const file of files) {
      const line = `  ${summaryLine(file)}`;
      if (used + line.length + 1 > budget) break;
      listed.push(line);
      used += line.length + 1;
    }
    lines.push(...listed);
    if (listed.length < files.length) lines.push(`  … and ${files.length - listed.length} more files`);
  }
  if (keys.some(({ files }) => files.some((file) => file.hunks.length > 0)))
    lines.push('[hunks not shown; git show <hash> shows one commit]');
  return lines.join('\n');
}

function reduceLog(lines: readonly string[], budget: number, partial?: string): string | undefined {
  const commits = commitsOf(lines).map(commitLine);
  if (commits.length === 0) return undefined;
  const shown: string[] = [];
  let used = 0;
  // Every commit is a record whose key (hash and subject) is kept past the budget, up to four
  // budgets' worth; a longer log says how many older commits it leaves out.
  for (const commit of commits) {
    if (shown.length > 0 && used + commit.length + 1 > budget * 4) break;
    shown.push(commit);
    used += commit.length + 1;
  }
  const more = commits.length > shown.length ? [`… and ${commits.length - shown.length} older commits`] : [];
  return [`${counted(commits.length, 'commit', partial)}:`, ...shown, ...more].join('\n');
}

const MERGING = new Set(['merge', 'pull', 'rebase', 'cherry-pick', 'revert']);
const AUTO_MERGING = /^Auto-merging (.+)$/;
/** Fewer `Auto-merging` lines than this are shown as printed. */
const MIN_AUTO_MERGING = 10;

/**
 * `git merge`/`pull`/`rebase`/`cherry-pick`/`revert`: each `Auto-merging file` line says only that
 * git looked at the file. With many of them, they become one count and every other line (each
 * `CONFLICT`, the verdict, the hints) is kept as printed.
 */
function reduceMerge(lines: readonly string[], partial: string | undefined): string | undefined {
  const merged = lines.filter((line) => AUTO_MERGING.test(line));
  if (merged.length < MIN_AUTO_MERGING) return undefined;
  const conflicts = lines.filter((line) => line.startsWith('CONFLICT ')).length;
  return [
    `[${counted(merged.length, 'file', partial)} auto-merged${conflicts > 0 ? `, ${conflicts.toLocaleString('en-US')} with a conflict listed below` : ''}]`,
    ...lines.filter((line) => !AUTO_MERGING.test(line)),
  ].join('\n');
}

/**
 * `git status` (long and porcelain), `git diff`/`git show` (patches and `--stat`) and `git log`:
 * counts and names, every changed file of a patch, hunks and commits up to the budget.
 */
export const reduceGitOutput: Recognizer = (input: RecognizerInput) => {
  const subcommand = gitSubcommand(input.command);
  if (subcommand === undefined) return undefined;
  if (MERGING.has(subcommand)) return reduceMerge(input.lines, input.partial);
  // `git diff --exit-code` and `--quiet` exit with 1 when there are differences.
  const succeeded =
    input.exitCode === 0 || input.exitCode === null || (subcommand === 'diff' && input.exitCode === 1);
  if (!succeeded) return undefined;
  if (subcommand === 'status') {
    return /--porcelain|--short|(^|\s)-[a-zA-Z]*s/.test(input.command)
      ? reducePorcelainStatus(input.lines, input.budget)
      : reduceLongStatus(input.lines, input.budget);
  }
  if (subcommand === 'diff' || subcommand === 'show')
    return /--stat|--shortstat/.test(input.command)
      ? reduceDiffStat(input.lines)
      : reduceGitPatch(input.lines, input.budget, input.partial);
  if (subcommand === 'log' && !/--oneline|--pretty|--format/.test(input.command)) {
    if (!/(^|\s)-p\b|--patch|--stat|(^|\s)-u\b/.test(input.command))
      return reduceLog(input.lines, input.budget, input.partial);
    const commits = commitsOf(input.lines);
    return commits.length === 0 ? undefined : reduceLogWithChanges(commits, input.budget, input.partial);
  }
  return undefined;
};
