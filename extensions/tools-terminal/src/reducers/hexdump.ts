import { cutRun, kindOf, textRuns } from './binary.js';
import {
  counted,
  firstAndLast,
  plural,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

/**
 * Hex dumps (`xxd`, `hexdump -C`, `od -A x -t x1z`): a view of binary bytes, one row of 16 a line.
 * A list of offsets says nothing; a reader asks what the bytes are, how many there are and what
 * text they hold. The summary gives the size and the kind read from the first bytes (as `file`
 * would), the readable text runs (as `strings` finds them), then the first and last rows as printed.
 */

const MIN_ROWS = 20;
/** Share of the non-empty lines that must be dump rows. */
const MIN_ROW_SHARE = 0.8;
const ROW_FORMATS: readonly RegExp[] = [
  // xxd: `00000310: 0100 0000 2f6c 6962  ......../lib`
  /^([0-9a-f]{6,16}): ((?:[0-9a-f]{2,4} ?)+?) {1,}(.{1,32})$/,
  // hexdump -C: `00000000  7f 45 4c 46 02 01  |.ELF..|`
  /^([0-9a-f]{6,16}) {2}((?:[0-9a-f]{2} {1,2})+)\s*\|(.{1,32})\|$/,
  // od -A x -t x1z: `000000 7f 45 4c 46  >.ELF<`
  /^([0-9a-f]{6,16}) ((?:[0-9a-f]{2} ?)+)\s*>(.{1,32})<$/,
];
/** hexdump's `*`: rows equal to the one above, not printed. */
const REPEAT = /^\*$/;

interface Row {
  offset: number;
  bytes: number[];
  line: string;
}

function rowOf(line: string, format: RegExp): Row | undefined {
  const match = format.exec(line);
  if (!match) return undefined;
  const hex = (match[2] as string).replace(/\s+/g, '');
  if (hex.length % 2 !== 0) return undefined;
  const bytes: number[] = [];
  for (let index = 0; index < hex.length; index += 2)
    bytes.push(Number.parseInt(hex.slice(index, index + 2), 16));
  return { offset: Number.parseInt(match[1] as string, 16), bytes, line };
}

export const reduceHexDump: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const lines = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const sample = lines.slice(0, 40);
  const format = ROW_FORMATS.find(
    (candidate) => sample.filter((line) => candidate.test(line)).length >= sample.length * MIN_ROW_SHARE,
  );
  if (format === undefined) return undefined;
  const rows: Row[] = [];
  let others = 0;
  for (const line of lines) {
    const row = rowOf(line, format);
    if (row) rows.push(row);
    else if (!REPEAT.test(line) && !/^[0-9a-f]{6,16}$/.test(line.trim())) others++;
  }
  if (rows.length < MIN_ROWS || rows.length < lines.length * MIN_ROW_SHARE) return undefined;
  const first = rows[0] as Row;
  const last = rows.at(-1) as Row;
  const end = last.offset + last.bytes.length;
  const size =
    input.partial === undefined
      ? `${end.toLocaleString('en-US')} bytes`
      : `at least ${end.toLocaleString('en-US')} bytes`;
  const offsets = `offsets ${first.offset.toString(16)}–${last.offset.toString(16)}`;
  // The bytes the rows show, for what `file` and `strings` would say (rows `*` stands for are not repeated).
  const shown = Buffer.from(rows.flatMap((row) => row.bytes)).toString('utf8');
  const kind = first.offset === 0 ? kindOf(shown) : undefined;
  const out = [
    `hex dump of ${size} (${offsets}, ${counted(rows.length, 'row', input.partial)})${kind ? `: ${kind}` : ''}`,
  ];
  const runs = textRuns(shown);
  let used = out[0]?.length ?? 0;
  if (runs.length > 0) {
    const listed: string[] = [];
    for (const run of runs) {
      const text = cutRun(run);
      if (listed.length > 0 && used + text.length + 2 > input.budget * 0.5) break;
      listed.push(text);
      used += text.length + 2;
    }
    const more = runs.length - listed.length;
    out.push(
      `readable text in it (${plural(runs.length, 'run')} of 8 or more printable characters${more > 0 ? `; the first ${listed.length}` : ''}):`,
      listed.join(' · '),
    );
  }
  // The first and last rows as printed, while the budget lasts.
  const room = Math.max(400, input.budget - used);
  out.push(
    ...firstAndLast(
      rows.map((row) => row.line),
      room,
      'first and last rows:',
      'row',
      2,
    ),
  );
  if (others > 0) out.push(`[${plural(others, 'line')} that are not dump rows not shown]`);
  return out.join('\n');
};
