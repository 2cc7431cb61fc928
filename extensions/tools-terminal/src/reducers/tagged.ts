import { counted, plural, type Recognizer, type RecognizerInput, WINDOW_CUT_LINE } from './reducer-input.js';

/**
 * Lines tagged with their level in brackets (`[warning] …`, `[ERROR] …`, `[INFO] …`: typedoc,
 * Maven, many build tools). Hundreds of warnings of one kind hide the few of another: the counts by
 * level, every error as printed, then each kind of message once with how many times it came and
 * the files it names, printed whole while the budget lasts.
 */

const TAGGED = /^\[(warning|warn|error|err|info|debug|fatal|notice|trace)\]\s+(.*)$/i;
const SEVERE = /^(?:error|err|fatal)$/i;
const MIN_TAGGED = 20;
/** Share of the non-empty lines that must be tagged. */
const MIN_TAGGED_SHARE = 0.7;
const QUOTED = /"[^"]*"|'[^']*'|`[^`]*`/g;
/** A word with a digit in it (`cartLabel20`, `cart-20.ts`, `1.2.3`) stands for a varying name. */
const NUMBERED = /\S*\d\S*/g;
/** A file's path as a message names it (`@shop/catalog/src/cart-20.ts`, `src/App.java`). */
const PATH = /(?:[\w.@-]+\/)+[\w.-]+\.\w+/g;
const MAX_LINE = 300;
const MAX_ERROR_LINE = 2_000;
const MAX_PATHS_NAMED = 60;

interface Kind {
  lines: string[];
  paths: Set<string>;
}

function clip(line: string, limit = MAX_LINE): string {
  return line.length <= limit ? line : `${line.slice(0, limit)}…`;
}

export const reduceTaggedLines: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const lines = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const tagged = lines.filter((line) => TAGGED.test(line));
  if (tagged.length < MIN_TAGGED || tagged.length < lines.length * MIN_TAGGED_SHARE) return undefined;
  const byTag = new Map<string, number>();
  const kinds = new Map<string, Kind>();
  const severe: string[] = [];
  for (const line of tagged) {
    const [, tag, message] = TAGGED.exec(line) as unknown as [string, string, string];
    const level = tag.toLowerCase();
    byTag.set(level, (byTag.get(level) ?? 0) + 1);
    if (SEVERE.test(tag)) {
      severe.push(line);
      continue;
    }
    const template = `${level} ${message.replace(QUOTED, '"…"').replace(NUMBERED, '…')}`;
    const kind = kinds.get(template) ?? { lines: [], paths: new Set<string>() };
    kind.lines.push(line);
    for (const path of message.match(PATH) ?? []) kind.paths.add(path);
    kinds.set(template, kind);
  }
  const out = [
    `${counted(tagged.length, 'tagged line', input.partial)}: ${[...byTag].map(([tag, count]) => `${tag} ${count.toLocaleString('en-US')}`).join(', ')}`,
  ];
  // An error's line is kept whole up to a long limit: what failed is often at its end (Maven's).
  if (severe.length > 0)
    out.push(
      `${counted(severe.length, 'error', input.partial)}:`,
      ...severe.map((line) => clip(line, MAX_ERROR_LINE)),
    );
  let used = out.join('\n').length;
  // The rarer kinds whole while the budget lasts; the commonest once, with their count and files.
  const ordered = [...kinds.values()].sort((a, b) => a.lines.length - b.lines.length);
  const shown = new Map<Kind, string[]>();
  for (const kind of ordered) {
    const whole = kind.lines.map((line) => clip(line));
    const size = whole.reduce((sum, line) => sum + line.length + 1, 0);
    if (used + size <= input.budget * 0.8) {
      shown.set(kind, whole);
      used += size;
      continue;
    }
    const paths = [...kind.paths];
    const named = paths.slice(0, MAX_PATHS_NAMED);
    const files =
      paths.length > 0
        ? `; in ${plural(paths.length, 'file')}: ${named.join(', ')}${paths.length > named.length ? ', …' : ''}`
        : '';
    const line =
      kind.lines.length === 1
        ? clip(kind.lines[0] as string)
        : `${clip(kind.lines[0] as string)}  [× ${kind.lines.length.toLocaleString('en-US')} of this kind${files}]`;
    shown.set(kind, [line]);
    used += line.length + 1;
  }
  // In the order the kinds first appeared.
  for (const kind of kinds.values()) out.push(...(shown.get(kind) ?? []));
  const others = lines.filter((line) => !TAGGED.test(line));
  if (others.length > 0) {
    out.push(`${plural(others.length, 'other line')}:`, ...others.slice(0, 10).map((line) => clip(line)));
    if (others.length > 10) out.push(`[… ${(others.length - 10).toLocaleString('en-US')} more]`);
  }
  return out.join('\n');
};
