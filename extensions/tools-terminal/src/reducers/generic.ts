import {
  DEFAULT_REDUCER_BUDGET,
  plural,
  type Recognizer,
  type RecognizerInput,
  unprefixed,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

export const GENERIC_THRESHOLD_BYTES = 8 * 1024;
const HEAD_LINES = 60;
const TAIL_LINES = 60;
const MAX_LINE_CHARS = 500;
/** A run of the same line this long or longer is shown once, with how many times it repeats. */
const MIN_RUN = 3;
/** Lines from the cut middle that say something failed; past this many only their count is given. */
const MAX_MIDDLE_PROBLEMS = 40;
/** Lines of a stack trace after its first line: Python's frames and source lines, JavaScript's and Java's `at` lines. */
const TRACE_LINE =
  /^\s+(?:File "|at |\.\.\. \d+ more|--> )|^\s+\^+\s*$|^Caused by: |^During handling of the above exception/;
/** A line indented four or more: part of a trace only when deeper than the failure it follows. */
const INDENTED_LINE = /^\s{4,}\S/;
const indentOf = (text: string) => text.length - text.trimStart().length;
/** The line that ends a Python traceback: the exception and its message. */
const EXCEPTION_LINE = /^[\w.]*(?:Error|Exception|Interrupt|Exit|Warning)\b(?::|$)/;
/**
 * A line as a trace is read: past a process runner's prefix, and past the `#` a TAP producer
 * prints its diagnostics under (`#   at t/x.t line 10.`, `#     expected: 'y'`).
 */
const traceText = (line: string) => unprefixed(line).replace(/^#(?=\s)/, '');
/**
 * Where a failure was found, printed on the line above it (doctest's `File "x.py", line 181, in
 * f` over `Failed example:`, a runner's `path:line` heading).
 */
const LOCATION_LINE = /^\s*File "[^"]+", line \d+|^\s*[\w./@-]+\.\w+:\d+(?::\d+)?\s*$/;
/** Lines of one trace kept at most. */
const MAX_TRACE_LINES = 40;
export const PROBLEM_LINE =
  /^\s*[\w.]*(?:Error|Exception)\b: |^\s*(?:[✘✖]|not ok\b)|\b(?:error|errors|fatal|exception|panic|panicked|failed|failure|traceback|segmentation fault|denied|refused|not found|cannot|unable to|conflict|rejected)\b|^E\d{3,}|^\s*✗|^\s*(?:FAIL|ERR!?)\b|^--- FAIL: |\bERR!|\bexit(?:ed)? (?:with )?(?:code|status):? [1-9]|\bexit code [1-9]/i;

/** A help text's or a manual's option line, with its description after two spaces or alone. */
const OPTION_LINE =
  /^\s{1,12}(?:-[A-Za-z0-9?], )?--[A-Za-z0-9][\w-]*(?:\[?=[^\s,]*\]?|\[[^\]\s]*\]| <[^>]+>)?(?:, --?[\w-]+(?:\[?=[^\s,]*\]?| <[^>]+>)?)*(?:\s+[^\s.,;:)].*)?$/;

/** Outline lines kept from the cut middle of a file printed whole: past this many only their count is given. */
const MAX_MIDDLE_OUTLINE = 150;
const MAX_FILE_OUTLINE = 400;
/**
 * A document's or a source file's outline: Markdown headings, and definitions at the start of a
 * line or one indent in (functions, classes, methods, types) in the common languages, a manual's
 * sections and options, TOML/INI tables, XML elements with attributes near the top, a
 * disassembly's functions, and SQL's CREATE/ALTER/COPY statements.
 */
const OUTLINE_LINE = new RegExp(
  [
    /^#{1,6} \S/,
    /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|enum|type|namespace|module)\s+[\w$]/,
    /^(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:fn|struct|enum|trait|impl|mod)\b/,
    /^(?:func|def|class)\s+\S/,
    /^ {2,4}(?:async\s+def|def|fn|pub fn)\s+\w/,
    /^ {2,4}(?:(?:public|private|protected|static|async|get|set|override|readonly)\s+)*(?!(?:if|for|while|switch|catch|with|return|else|do|await|typeof|new)\b)[A-Za-z_$#][\w$]*\s*(?:<[^>]*>)?\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$/,
    /^(?:const|let|var)\s+[\w$]+\s*=\s*(?:async\s*)?(?:function|\([^)]*\)\s*=>)/,
    /^exports\.[\w$]+\s*=|^module\.exports\s*=/,
    // A manual's section headings (`PRETTY FORMATS`), and the options a manual or a `--help` text
    // defines (`       --since=<date>`, `  -o, --output <file>  Write to file`).
    /^[A-Z][A-Z0-9]{2,}(?: [A-Z0-9]+)*$/,
    // An option's own line ends there, or goes on after two spaces with its description; prose
    // that names an option (`   --merges.  --max-parents=0 gives…`) is not one.
    OPTION_LINE,
    /^\s{1,12}-[A-Za-z0-9](?:,|\s{2,}|$)/,
    // A TOML or INI file's tables (`[pkg.cargo]`), and an XML file's elements near the top that
    // carry attributes (`  <mime-type type="application/pdf">`).
    /^\[[^\]\s][^\]]*\]\s*$/,
    /^ {0,2}<[A-Za-z][\w:.-]*(?:\s+[\w:.-]+="[^"]*")+\s*\/?>\s*$/,
    // A disassembly's functions (`objdump -d`: `0000000000001169 <parse_line>:`).
    /^[0-9a-f]{8,16} <[^>]+>:$/,
    // SQL's statements that define things (a dump, a migration): not its rows.
    /^(?:CREATE|ALTER|DROP|COPY|GRANT|REVOKE|COMMENT ON)\s+\S/,
    // A dump's sequence positions (`SELECT pg_catalog.setval('public.orders_id_seq', 3000, true);`).
    /^SELECT pg_catalog\.setval\(/,
    // A table's keys and constraints, on the line under `ALTER TABLE ONLY public.customers`.
    /^\s+ADD CONSTRAINT\s+\S/,
    /^(?:create|alter|drop)\s+(?:table|view|index|unique|sequence|function|procedure|trigger|type|schema|extension|materialized)\b/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
);

/** YAML's keys at the top two levels (`services:`, `  web:`), for an output that is YAML. */
const YAML_KEY = /^(?: {2})?[^\s#'"-][^:#]*:(?:\s|$)/;
const YAML_COMMAND = /\.ya?ml\b|-o\s*ya?ml\b|--output[= ]ya?ml\b/;
const YAML_START = /^(?:---\s*$|%YAML |apiVersion: |lockfileVersion: )/;
/** A line YAML could hold: blank, a comment, a list item, a key, or an indented continuation. */
const YAML_SHAPED = /^(?:\s*$|\s*#|\s*- |\s*-$|[^\s:#][^:#]*:(?:\s|$)|\s+\S)/;

/**
 * Whether the output is YAML: it starts as a YAML document does, or a command naming a YAML file
 * printed lines that are nearly all YAML-shaped (`cat deploy.yaml`, not `ansible-playbook
 * site.yml`, whose task log only names one).
 */
function looksYaml(command: string, lines: readonly string[]): boolean {
  if (YAML_START.test(lines[0] ?? '')) return true;
  if (!YAML_COMMAND.test(command)) return false;
  const sample = lines.slice(0, 400);
  const shaped = sample.filter((line) => YAML_SHAPED.test(line)).length;
  return shaped >= sample.length * 0.9;
}

/**
 * A listing's row that is or ends with a file's path (`  8  2026-11-20 10:00   site/a.txt`), or a
 * test's id under its file (`tests/test_a.py::test_b[1]`).
 */
const PATH_ROW = /(?:^|\S\s+)(?:\.{0,2}\/)?[\w.@+-]+(?:\/[\w.@+-]+)+(?:::\S+)?\/?$/;
/** A record's labelled field (`  File: a.ts`, `Name: pkg`), its label and the indentation before it. */
const LABELLED_LINE = /^(\s*[A-Za-z][\w -]{0,30}:)\s+\S/;
/** Records a listing holds at least for its first line's label to be read as their key. */
const MIN_RECORDS = 3;

/**
 * In a listing of records each of which starts with the same labelled field (`stat`'s `  File:`
 * blocks, `pip show`'s `Name:`), that field's label and indentation: each record's key line starts
 * with it. A record has lines other than its key: a log whose every line starts the same way holds
 * no records.
 */
function recordKeyOf(lines: readonly string[]): string | undefined {
  const first = lines.find((line) => line.trim() !== '');
  const label = first === undefined ? undefined : LABELLED_LINE.exec(first)?.[1];
  if (label === undefined) return undefined;
  const count = lines.filter((line) => line.startsWith(label)).length;
  return count >= MIN_RECORDS && count * 2 <= lines.length ? label : undefined;
}

/** A line nested two levels or more in a tree indented two spaces a level (`npm explain`): text, not a right-aligned number. */
const TREE_LINE = /^(?: {2}){2,}[^\s\d]/;
/** A tree's first two levels: each record and what it is directly under. */
const TREE_TOP = /^(?: {2})?[^\s\d]/;

/** Whether most lines are nested in a tree: its first two levels are then its records' key lines. */
function isTree(lines: readonly string[]): boolean {
  const content = lines.filter((line) => line.trim() !== '');
  return content.filter((line) => TREE_LINE.test(line)).length >= content.length * 0.5;
}

/**
 * A heading a tool prints above each step or section, ruled off to the right or on both sides
 * (`TASK [Run migration] ******`, `===== 3 failed =====`, `--- FAIL: x ---`).
 */
const BANNER_LINE =
  /^\S.*\S\s+(?:\*{3,}|={3,}|-{3,}|#{3,})\s*$|^(?:={3,}|-{3,}|\*{3,}|#{3,})\s+\S.*\S\s+(?:={3,}|-{3,}|\*{3,}|#{3,})\s*$/;
/** How far above a failure its banner heading is looked for. */
const MAX_BANNER_DISTANCE = 30;
/** How far above a failure the lines it is nested under are looked for. */
const MAX_PARENT_DISTANCE = 200;

function clipLine(line: string): string {
  return line.length <= MAX_LINE_CHARS
    ? line
    : `${line.slice(0, MAX_LINE_CHARS)}… [${line.length - MAX_LINE_CHARS} more chars]`;
}

interface Shown {
  text: string;
  /** How many printed lines it stands for. */
  lines: number;
}

/** Each run of identical lines (a polling loop, a health check, a retry) as one line and its count. */
function collapseRuns(lines: readonly string[]): Shown[] {
  const shown: Shown[] = [];
  for (let index = 0; index < lines.length; ) {
    const line = lines[index] as string;
    let end = index + 1;
    while (end < lines.length && lines[end] === line) end++;
    const run = end - index;
    // Next to where the window cut the output, the run may go on in the part not read.
    const nearCut = [lines[index - 1], lines[end], lines[end + 1]].some(
      (neighbour) => neighbour !== undefined && WINDOW_CUT_LINE.test(neighbour),
    );
    const times = `${nearCut ? 'at least ' : ''}${run.toLocaleString('en-US')}`;
    if (run >= MIN_RUN) shown.push({ text: `${clipLine(line)}  [× ${times}]`, lines: run });
    else for (let copy = 0; copy < run; copy++) shown.push({ text: clipLine(line), lines: 1 });
    index = end;
  }
  return shown;
}

/** A line that reports a failure, or the marker saying part of the output was not read. */
const isProblemLine = (text: string) => PROBLEM_LINE.test(unprefixed(text)) || WINDOW_CUT_LINE.test(text);

/**
 * The two kinds of line the cut keeps from the middle and counts in its note: lines reporting a
 * failure, and outline lines (a document's headings and keys, a file's definitions, each record's
 * key line, a tree's first two levels when no line of it reports a failure), read from the whole
 * output, so a note's counts can be checked against it.
 */
export function cutKinds(
  command: string,
  lines: readonly string[],
): { isOutline: (text: string) => boolean; isProblem: (text: string) => boolean } {
  const yaml = looksYaml(command, lines);
  const recordKey = recordKeyOf(lines);
  // A tree with failures in it (a spec reporter's) is read by its failures and their parents, a
  // file printed whole (XML, YAML) by its outline.
  const tree = !lines.some(isProblemLine) && !FILE_COMMAND.test(command) && isTree(lines);
  const isOutline = (text: string) =>
    OUTLINE_LINE.test(text) ||
    (yaml && YAML_KEY.test(text)) ||
    (recordKey !== undefined && text.startsWith(recordKey)) ||
    (tree && TREE_TOP.test(text));
  return { isOutline, isProblem: isProblemLine };
}

/** Lines kept at each end whatever their length. */
const MIN_END_LINES = 8;
/** Shares of the budget each end gets before the middle's kept lines, and the lines each keeps whatever their length. */
const HEAD_SHARE = 0.2;
const TAIL_SHARE = 0.12;
const MIN_HEAD_LINES = 4;
const MIN_TAIL_LINES = 3;
/** Room left for the markers around the kept middle. */
const MARKER_CHARS = 420;
/** Commands that print a file or a document whole: its outline matters more than its words. */
const FILE_COMMAND =
  /^(?:\S+=\S+\s+)*(?:sqlite3\s.*\.dump\b|pg_dump|mysqldump|cat|head|tail|bat|batcat|less|more|nl|sed\s+-n|man|zcat|xmllint|jq|yq|curl\s+--help|\S+\s+--help)\b/;

/** How many of the first entries fit in `budget` characters: at least a few, at most `max`. */
function linesWithin(entries: readonly Shown[], max: number, budget: number, min = MIN_END_LINES): number {
  let used = 0;
  let count = 0;
  for (const entry of entries) {
    if (count >= max || (count >= min && used + entry.text.length + 1 > budget)) break;
    used += entry.text.length + 1;
    count++;
  }
  return count;
}

const printedLines = (shown: readonly Shown[]) => shown.reduce((sum, entry) => sum + entry.lines, 0);

/**
 * Anything over the budget by a tenth that nothing else recognized: repeated lines once with their count, then the
 * first and last lines, with the cut middle's lines reporting a failure kept between them (a
 * log's error is rarely in its first or last 60 lines), very long lines clipped.
 */
export const reduceGenericOutput: Recognizer = (input: RecognizerInput) => {
  // A small budget does not shrink the whole further: what this reducer keeps is sized for the default.
  const budget = Math.max(input.budget, DEFAULT_REDUCER_BUDGET);
  // An output over the budget by less than a tenth is left whole.
  if (input.output.length <= budget * 1.1) return undefined;
  const shown = collapseRuns(input.lines);
  // Each end gets a share of the budget first; the ends grow once the middle's lines are chosen.
  const clipped = shown.map((entry) => entry.text).join('\n');
  if (clipped.length <= budget) return clipped.length < input.output.length ? clipped : undefined;
  let headLines = linesWithin(shown, HEAD_LINES, budget * HEAD_SHARE, MIN_HEAD_LINES);
  let tailLines = linesWithin([...shown].reverse(), TAIL_LINES, budget * TAIL_SHARE, MIN_TAIL_LINES);
  if (shown.length <= headLines + tailLines)
    return clipped.length < input.output.length ? clipped : undefined;
  const middle = shown.slice(headLines, shown.length - tailLines);
  // A marker saying part of the output was not read stays where it was.
  const problems = middle.filter((entry) => isProblemLine(entry.text));
  const keptProblems = new Set(problems.slice(0, MAX_MIDDLE_PROBLEMS));
  // A failure's stack trace goes with it: the frames after `Traceback …`, an `Error:` or an
  // exception line, to the exception that ends a Python traceback.
  for (const problem of [...keptProblems]) {
    let index = middle.indexOf(problem) + 1;
    // A sibling printed at the failure's own depth (the next test under `sums case 6 (FAILED - 1)`)
    // is not part of its trace.
    const depth = indentOf(traceText(problem.text));
    for (let taken = 0; index < middle.length && taken < MAX_TRACE_LINES; index++, taken++) {
      const entry = middle[index] as Shown;
      const text = traceText(entry.text);
      if (TRACE_LINE.test(text) || (INDENTED_LINE.test(text) && indentOf(text) > depth))
        keptProblems.add(entry);
      else {
        if (EXCEPTION_LINE.test(text)) keptProblems.add(entry);
        break;
      }
    }
  }
  for (const problem of problems.slice(0, MAX_MIDDLE_PROBLEMS)) {
    const above = middle[middle.indexOf(problem) - 1];
    if (above !== undefined && LOCATION_LINE.test(unprefixed(above.text))) keptProblems.add(above);
  }
  // What a failure was printed under: the banner heading of its step or section, and in a tree
  // (a spec reporter's `describe` blocks) the lines above it indented less, up to the top level.
  for (const problem of problems.slice(0, MAX_MIDDLE_PROBLEMS)) {
    const at = middle.indexOf(problem);
    for (let index = at - 1; index >= 0 && index >= at - MAX_BANNER_DISTANCE; index--) {
      const entry = middle[index] as Shown;
      if (BANNER_LINE.test(entry.text)) {
        keptProblems.add(entry);
        break;
      }
    }
    // In a process runner's log, only the same process's lines are its parents.
    const prefix = problem.text.slice(0, problem.text.length - unprefixed(problem.text).length);
    let depth = indentOf(unprefixed(problem.text));
    for (let index = at - 1; depth > 0 && index >= 0 && index >= at - MAX_PARENT_DISTANCE; index--) {
      const entry = middle[index] as Shown;
      const text = unprefixed(entry.text);
      if (!entry.text.startsWith(prefix) || entry.text.length - text.length !== prefix.length) continue;
      if (text.trim() === '' || indentOf(text) >= depth) continue;
      keptProblems.add(entry);
      depth = indentOf(text);
    }
  }
  const yaml = looksYaml(input.command, input.lines);
  // A line repeated word for word (`changed: [localhost]`, a nested `  dependencies:` key) tells
  // nothing the first one did not: it is kept once.
  const seenOutline = new Set<string>();
  const { isOutline, isProblem } = cutKinds(input.command, input.lines);
  const outline = middle.filter((entry) => {
    if (!isOutline(entry.text)) return false;
    if (seenOutline.has(entry.text)) return false;
    seenOutline.add(entry.text);
    return true;
  });
  // Top-level entries first (a document's keys, a file's definitions), then nested ones while room
  // is left; a TOML table two dots deep (`[pkg.cargo.target.x]`) only while the outline stays
  // within the default budget's worth of characters (a manifest holds hundreds).
  const deepTable = (text: string) => /^\[[^\]]*\.[^\]]*\.[^\]]*\]/.test(text);
  const topLevel = outline.filter((entry) => !/^\s/.test(entry.text) && !deepTable(entry.text));
  const nested = outline.filter((entry) => /^\s/.test(entry.text));
  let outlineChars = [...topLevel, ...nested].reduce((sum, entry) => sum + entry.text.length + 1, 0);
  const deep = outline.filter((entry) => {
    if (!deepTable(entry.text)) return false;
    outlineChars += entry.text.length + 1;
    return outlineChars <= Math.max(input.budget, DEFAULT_REDUCER_BUDGET);
  });
  // What each kind of kept line costs, and where it was printed: a file's lines keep their number.
  const fileLike = FILE_COMMAND.test(input.command) || outline.length > problems.length;
  // A file's outline is what is kept of it (a help text's options, a manual's sections, a source
  // file's definitions): 150 lines, and a help text's options up to 400; a log's outline lines come
  // after its failures.
  const outlineOrder = [...topLevel, ...nested, ...deep].filter(
    (entry, index) =>
      index < MAX_MIDDLE_OUTLINE || (fileLike && index < MAX_FILE_OUTLINE && OPTION_LINE.test(entry.text)),
  );
  const lineNumbers = new Map<Shown, number>();
  let printed = 1;
  for (const entry of shown) {
    lineNumbers.set(entry, printed);
    printed += entry.lines;
  }
  // Over the budget, an option's description gives way to the option itself.
  let bare = false;
  const text = (entry: Shown) => {
    if (!bare || !OPTION_LINE.test(entry.text)) return entry.text;
    return entry.text.replace(/^(\s*\S.*?)\s{2,}\S.*$/, '$1');
  };
  const render = (entry: Shown) => (fileLike ? `${lineNumbers.get(entry)}: ${text(entry)}` : entry.text);
  const cost = (entries: Iterable<Shown>) => {
    let sum = 0;
    for (const entry of entries) sum += render(entry).length + 1;
    return sum;
  };
  // The budget is shared: a little of each end first, then what this reducer exists to keep from
  // the middle (a file's outline, a log's failures), then the other kind, then more of each end.
  // A log or a listing over 8 KB keeps up to 60 lines at each end as before, each end within the
  // budget: its records (a request, a process, a file) are its facts, and no outline says which
  // matter. A smaller one shares the budget between its ends like a file (a listing of paths is
  // left whole, below).
  if (!fileLike && input.output.length > GENERIC_THRESHOLD_BYTES) {
    headLines = linesWithin(shown, HEAD_LINES, budget);
    tailLines = Math.min(linesWithin([...shown].reverse(), TAIL_LINES, budget), shown.length - headLines);
  }
  let used = MARKER_CHARS + cost(shown.slice(0, headLines)) + cost(shown.slice(shown.length - tailLines));
  const problemOrder = middle.filter((entry) => keptProblems.has(entry));
  const [first, second] = fileLike ? [outlineOrder, problemOrder] : [problemOrder, outlineOrder];
  const kept = new Set<Shown>(first);
  if (fileLike && used + cost(first) > budget) {
    // The outline does not fit beside the ends' share: the ends shrink to their first and last lines.
    bare = true;
    used -= cost(shown.slice(0, headLines)) + cost(shown.slice(shown.length - tailLines));
    const dropped = [
      ...shown.slice(Math.min(headLines, MIN_HEAD_LINES), headLines),
      ...shown.slice(shown.length - tailLines, shown.length - Math.min(tailLines, MIN_TAIL_LINES)),
    ];
    headLines = Math.min(headLines, MIN_HEAD_LINES);
    tailLines = Math.min(tailLines, MIN_TAIL_LINES);
    used += cost(shown.slice(0, headLines)) + cost(shown.slice(shown.length - tailLines));
    // The outline lines of what the ends no longer show join the kept ones.
    for (const entry of dropped)
      if (OUTLINE_LINE.test(entry.text) || (yaml && YAML_KEY.test(entry.text))) {
        kept.add(entry);
        used += render(entry).length + 1;
      }
  }
  const bared = bare && first.some((entry) => OPTION_LINE.test(entry.text) && /\S\s{2,}\S/.test(entry.text));
  used += cost(first);
  const firstOver = used > budget;
  for (const entry of second) {
    if (kept.has(entry)) continue;
    const size = render(entry).length + 1;
    if (used + size > budget) continue;
    kept.add(entry);
    used += size;
  }
  // Room left: more of each end, a line of each in turn, up to 60 lines each.
  for (let growing = true; growing && headLines + tailLines < shown.length; ) {
    growing = false;
    if (headLines < HEAD_LINES) {
      const size = render(shown[headLines] as Shown).length + 1;
      if (used + size <= budget) {
        used += size;
        headLines++;
        growing = true;
      }
    }
    if (tailLines < TAIL_LINES && headLines + tailLines < shown.length) {
      const size = render(shown[shown.length - 1 - tailLines] as Shown).length + 1;
      if (used + size <= budget) {
        used += size;
        tailLines++;
        growing = true;
      }
    }
  }
  const keptMiddle = shown.slice(headLines, shown.length - tailLines).filter((entry) => kept.has(entry));
  // Under 8 KB a listing of paths (`unzip -l`, `tar -tv`, `pytest --collect-only`) is left whole:
  // each row is a record whose path is its key, and a cut that keeps nothing from the middle drops them.
  if (input.output.length <= GENERIC_THRESHOLD_BYTES && keptMiddle.length === 0) {
    const cutRows = shown.slice(headLines, shown.length - tailLines);
    if (cutRows.filter((entry) => PATH_ROW.test(entry.text)).length >= cutRows.length * 0.9) return undefined;
  }
  // The note counts what the output shows once the ends have grown: of each kind, the lines kept
  // against those in the part finally cut, never against the middle first chosen.
  const cutMiddle = shown.slice(headLines, shown.length - tailLines);
  const cut = printedLines(cutMiddle) - printedLines(keptMiddle);
  const texts = (entries: readonly Shown[]) => entries.map((entry) => entry.text);
  const problemsCut = texts(cutMiddle).filter(isProblem).length;
  const keptProblemLines = texts(keptMiddle).filter(isProblem).length;
  const outlineCut = new Set(texts(cutMiddle).filter(isOutline)).size;
  const keptOutline = new Set(texts(keptMiddle).filter(isOutline)).size;
  const keptAround = keptMiddle.filter((entry) => keptProblems.has(entry) && !isProblem(entry.text)).length;
  const what = [
    ...(keptProblemLines > 0
      ? [
          `${plural(keptProblemLines, 'line')} reporting a failure${problemsCut > keptProblemLines ? ` (of ${problemsCut.toLocaleString('en-US')})` : ''}${keptAround > 0 ? ' with their stack traces and the headings they were printed under' : ''}`,
        ]
      : keptAround > 0
        ? [`${plural(keptAround, 'line')} of failures' stack traces and the headings they were printed under`]
        : []),
    ...(keptOutline > 0
      ? [
          `${plural(keptOutline, 'outline line')} (headings, definitions, keys)${outlineCut > keptOutline ? ` (of ${outlineCut.toLocaleString('en-US')})` : ''}`,
        ]
      : []),
  ];
  const over = firstOver
    ? `; over the ${budget.toLocaleString('en-US')}-character budget: ${fileLike ? 'the outline' : 'the failures'} alone are ${plural(cost(first), 'character')}`
    : '';
  const numbered =
    fileLike && keptMiddle.length > 0
      ? `, each after its line number${bared ? ', options without their descriptions' : ''}`
      : '';
  const marker =
    keptMiddle.length === 0
      ? `[… ${plural(cut, 'line')} cut from the middle …]`
      : `[… ${plural(cut, 'line')} cut from the middle; kept from it: ${what.join(' and ')}${numbered}${over} …]`;
  return [
    ...shown.slice(0, headLines).map((entry) => entry.text),
    marker,
    ...keptMiddle.map(render),
    ...(keptMiddle.length > 0 ? ['[… end of the kept lines …]'] : []),
    ...shown.slice(shown.length - tailLines).map((entry) => entry.text),
  ].join('\n');
};
