import {
  counted,
  endsThatFit,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

/**
 * Records that are a line at the left margin with a tree or an indented list under it: `pnpm -r
 * list` (a workspace package, then `├── dep@1.0.0` lines under `dependencies:`), `apt-cache
 * depends a b` (`  Depends: libc6`). Every record's line is kept, with how many entries each of
 * its sections holds and the entries' names, first and last, while its share of the budget lasts.
 */

const UNDER = /^[\s│├└|`+\\]/;
// `├── name`, `└─┬ name`, `|   +-- name`, or an indented `name`/`Label: name`.
const ENTRY = /^[\s│├└|`+\\─┬-]*?(?:[├└+`\\][─-]+[─┬-]?\s+|\s{2,}|\t)(\S.*)$/;
const BRANCH = /^[\s│|]*(?:[├└`+\\][─-]|\|?[A-Z][\w-]*: \S|[\s│|]*[\w][\w -]*:\s*$)/;
const SECTION = /^[\s│|]*([\w][\w -]*):\s*$/;
const MIN_RECORDS = 3;

interface TreeRecord {
  heading: string;
  /** `dependencies:` headings its entries; a label (`Depends`) prefixes each of them. */
  sections: { name: string; labelled?: boolean; entries: string[] }[];
}

export const reduceTreeRecords: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const lines = input.lines.filter((line) => !WINDOW_CUT_LINE.test(line));
  const records: TreeRecord[] = [];
  const others: string[] = [];
  let current: TreeRecord | undefined;
  let under = 0;
  let content = 0;
  let branches = 0;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '' || /^[\s│|]*$/.test(line)) {
      if (line.trim() === '') current = current && current.sections.length > 0 ? undefined : current;
      continue;
    }
    content++;
    if (!UNDER.test(line)) {
      // A line at the margin opens a record when something is nested under it.
      const next = lines[index + 1] ?? '';
      if (UNDER.test(next) && next.trim() !== '') {
        current = { heading: line.trim(), sections: [] };
        records.push(current);
      } else {
        current = undefined;
        others.push(line);
      }
      continue;
    }
    if (current === undefined) {
      others.push(line);
      continue;
    }
    under++;
    if (BRANCH.test(line)) branches++;
    const section = SECTION.exec(line);
    if (section) {
      current.sections.push({ name: (section[1] as string).trim(), entries: [] });
      continue;
    }
    const entry = ENTRY.exec(line)?.[1]?.trim();
    if (entry === undefined) continue;
    // `Depends: libc6` under `git`: the label is the section.
    const labelled = /^(\|?[A-Z][\w-]*): (\S.*)$/.exec(entry);
    const name = labelled ? (labelled[1] as string) : '';
    const last = current.sections.at(-1);
    const target =
      last !== undefined && (labelled === null || last.name === name)
        ? last
        : { name, labelled: labelled !== null, entries: [] as string[] };
    if (target !== last) current.sections.push(target);
    target.entries.push(labelled ? (labelled[2] as string) : entry);
  }
  const withEntries = records.filter((record) =>
    record.sections.some((section) => section.entries.length > 0),
  );
  // A tree drawn with branches, or labelled entries; indented prose and test names are not one.
  if (withEntries.length < MIN_RECORDS || under < content * 0.6 || branches < under * 0.6) return undefined;
  const kept = others.slice(0, 10).map((line) => line.trim());
  const headings = records.reduce((sum, record) => sum + record.heading.length + 1, 0);
  const left = input.budget - headings - kept.reduce((sum, line) => sum + line.length + 1, 0);
  // Each section's names within an equal share of what is left, the smallest sections first, so
  // what a small one leaves goes to the larger ones.
  const all = records.flatMap((record) => record.sections.filter((section) => section.entries.length > 0));
  const listed = new Map<TreeRecord['sections'][number], string>();
  let room = left;
  for (const [index, section] of [...all].sort((a, b) => a.entries.length - b.entries.length).entries()) {
    const count = counted(section.entries.length, 'entry', input.partial).replace(/entrys\b/, 'entries');
    // `Depends: libc6, zlib1g (2 entries)` as apt prints a label; `dependencies (18 entries): …` under a heading.
    const label = section.labelled
      ? `${section.name} (${count}):`
      : `${section.name ? `${section.name} ` : ''}(${count}):`;
    const share = Math.floor(room / (all.length - index)) - label.length - 4;
    const { head, tail, hidden } = endsThatFit(
      section.entries.map((entry) => `${entry},`),
      share,
      { headPerTail: 2 },
    );
    const between = hidden > 0 ? [`… ${hidden.toLocaleString('en-US')} more …,`] : [];
    const names = [...head, ...between, ...tail].join(' ').slice(0, -1);
    const line = section.labelled
      ? `  ${section.name}: ${names} (${count})`
      : `  ${label} ${names}`.trimEnd();
    listed.set(section, line);
    room -= line.length + 1;
  }
  const out = [...kept];
  for (const record of records) {
    out.push(record.heading);
    for (const section of record.sections) {
      const line = listed.get(section);
      if (line !== undefined) out.push(line);
    }
  }
  return out.join('\n');
};
