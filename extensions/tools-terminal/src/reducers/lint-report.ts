import { counted, countsOf } from './reducer-input.js';

/**
 * What a linter's or compiler's report keeps when its problems, grouped, are still over the budget
 * (eslint, tsc, pylint, flake8, shellcheck, gcc): every file with its count, each kind with its
 * count, and as many places of each kind as the room leaves, the rarest kinds first.
 */

/** `12 files: src/a.js 18, src/b.js 3, …`, every file in the order first named, with its problems. */
export function filesLine(files: readonly string[], partial: string | undefined): string {
  const counts = new Map<string, number>();
  for (const file of files) counts.set(file, (counts.get(file) ?? 0) + 1);
  const listed = [...counts].map(([file, count]) => `${file} ${count.toLocaleString('en-US')}`);
  return `${counted(counts.size, 'file', partial)} (problems each): ${listed.join(', ')}`;
}

/** `by rule: no-undef 72, eqeqeq 36`, the commonest first. */
export function rulesLine(
  rules: readonly (string | undefined)[],
  partial: string | undefined,
): string | undefined {
  const counts = countsOf(rules);
  if (counts.length === 0) return undefined;
  const prefix = partial === undefined ? 'by rule' : 'by rule (at least)';
  return `${prefix}: ${counts.map(([rule, count]) => `${rule} ${count.toLocaleString('en-US')}`).join(', ')}`;
}

/** `216 problems in 12 files`, for a report that prints no total of its own. */
export function totalLine(problems: number, files: number, partial: string | undefined): string {
  return `${counted(problems, 'problem', partial)} in ${counted(files, 'file', partial)}`;
}

export interface PlaceGroup {
  /** What the group is (`error no-var Unexpected var…`), shown before its count. */
  title: string;
  /** Each member's place, as listed after the title. */
  places: readonly string[];
}

const MORE = ', … and 000,000 more';

/**
 * Each group as `title (N×): place, place, … and K more`, in the order given, within `room`
 * characters: every title and count always, then places, the smallest groups served first (a rare
 * kind's places are what a reader looks for), each group at most an equal share of what is left.
 */
export function groupLinesWithin(groups: readonly PlaceGroup[], room: number): string[] {
  const head = (group: PlaceGroup) => `${group.title} (${group.places.length}×)`;
  let left = room - groups.reduce((sum, group) => sum + head(group).length + 1, 0);
  const shown = new Map<PlaceGroup, number>();
  const bySize = [...groups].sort((a, b) => a.places.length - b.places.length);
  for (const [index, group] of bySize.entries()) {
    const whole = group.places.reduce((sum, place) => sum + place.length + 2, 0);
    const share = Math.floor(left / (bySize.length - index));
    if (whole <= share) {
      shown.set(group, group.places.length);
      left -= whole;
      continue;
    }
    let used = MORE.length;
    let count = 0;
    for (const place of group.places) {
      if (used + place.length + 2 > share) break;
      used += place.length + 2;
      count++;
    }
    shown.set(group, count);
    left -= count === 0 ? 0 : used;
  }
  return groups.map((group) => {
    const count = shown.get(group) ?? 0;
    const rest = group.places.length - count;
    if (count === 0) return head(group);
    if (rest === 0) return `${head(group)}: ${group.places.join(', ')}`;
    // The first places and the last, as a reader scanning the report meets them.
    const last = Math.floor(count / 3);
    const first = group.places.slice(0, count - last);
    const end = last === 0 ? [] : group.places.slice(-last);
    return `${head(group)}: ${[...first, `… ${rest.toLocaleString('en-US')} more …`, ...end].join(', ')}`;
  });
}
