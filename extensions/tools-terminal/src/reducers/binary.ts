/**
 * Output that is not text: a database, an image, an archive or a program sent to the terminal
 * (`cat orders.db`, `head -c 4096 ./app`, `gzip -c`, `tar -cf -`). Decoded as UTF-8 it is NUL
 * bytes and replacement characters, which a model cannot read and which a JSON transport
 * escapes to six characters each. What a reader can use of it is what it is (its kind, from the
 * first bytes), its size and the readable text inside it (what `strings` finds: a database's
 * schema, an archive's file names, a program's libraries); the bytes themselves are not shown.
 */

/** Characters of the output sampled to decide whether it is binary. */
const SAMPLE_CHARS = 64 * 1024;
/** A run of printable characters at least this long counts as text inside binary (`strings -n 8`). */
const MIN_RUN = 8;
/** A run is shown up to this many characters. */
const MAX_RUN_SHOWN = 160;

interface BinaryInput {
  output: string;
  /** Bytes the command printed, when known; else estimated from the decoded text. */
  bytes?: number;
  budget: number;
  /** Set when part of the output was not read (the terminal's window cut its middle). */
  partial?: string;
}

/** Control characters no text output contains (tab, newline, form feed, carriage return and escape excepted). */
function isBinaryChar(code: number): boolean {
  return (
    code === 0xfffd ||
    (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d && code !== 0x1b)
  );
}

/**
 * Binary when NUL bytes appear with other non-text characters (2 % of the sample), or when non-text
 * characters are a third of it. Text with a stray NUL or a few mis-encoded characters stays text,
 * and so do NUL-separated records (`find -print0`, `git ls-files -z`, `env -0`): single NULs
 * between printable text, never two in a row.
 */
export function looksBinary(output: string): boolean {
  const length = Math.min(output.length, SAMPLE_CHARS);
  if (length === 0) return false;
  let nul = 0;
  let nulPairs = 0;
  let other = 0;
  for (let index = 0; index < length; index++) {
    const code = output.charCodeAt(index);
    if (code === 0) {
      nul++;
      if (index > 0 && output.charCodeAt(index - 1) === 0) nulPairs++;
    } else if (isBinaryChar(code)) other++;
  }
  if (other === 0 && nulPairs === 0) return false;
  return (nul > 0 && nul + other >= length * 0.02) || other >= length / 3;
}

/** NUL-separated records (`find -print0`) read as lines; any other text as it is. */
export function nulSeparatedAsLines(output: string): string {
  return output.includes('\u0000') ? output.replace(/\u0000/g, '\n') : output;
}

/** UTF-16 text (a byte-order mark, or every second byte NUL): what `iconv` would make readable. */
function utf16Text(output: string): string | undefined {
  const start = output.startsWith('\ufffd\ufffd') ? 2 : 0;
  const sample = output.slice(start, start + 2_000);
  if (sample.length < 8) return undefined;
  let nulOdd = 0;
  let printableEven = 0;
  for (let index = 0; index + 1 < sample.length; index += 2) {
    const even = sample.charCodeAt(index);
    if (sample.charCodeAt(index + 1) === 0) nulOdd++;
    if (even === 0x0a || even === 0x09 || even === 0x0d || (even >= 0x20 && even < 0x7f)) printableEven++;
  }
  const pairs = Math.floor(sample.length / 2);
  if (nulOdd < pairs * 0.9 || printableEven < pairs * 0.9) return undefined;
  let text = '';
  for (let index = start; index < output.length; index += 2) text += output[index];
  return text.replace(/\r\n/g, '\n');
}

/** What the first bytes say the output is, as `file` would (the common kinds a workspace holds). */
export function kindOf(output: string): string | undefined {
  const head = output.slice(0, 600);
  if (head.startsWith('\u007fELF')) return 'an ELF executable or library';
  if (head.startsWith('SQLite format 3\u0000')) return 'an SQLite database';
  if (head.startsWith('\ufffdPNG')) {
    const size = /IHDR([\s\S]{4})([\s\S]{4})/.exec(head);
    const dimension = (bytes: string) =>
      [...bytes].every((char) => char.charCodeAt(0) < 0x80)
        ? [...bytes].reduce((value, char) => value * 256 + char.charCodeAt(0), 0)
        : undefined;
    const width = size ? dimension(size[1] as string) : undefined;
    const height = size ? dimension(size[2] as string) : undefined;
    return width !== undefined && height !== undefined
      ? `a PNG image, ${width} × ${height} pixels`
      : 'a PNG image';
  }
  if (/^GIF8[79]a/.test(head)) return 'a GIF image';
  if (/^\ufffd\ufffd\ufffd/.test(head) && /JFIF|Exif/.test(head.slice(0, 40))) return 'a JPEG image';
  if (head.startsWith('%PDF-')) return 'a PDF document';
  if (head.startsWith('\u001f\ufffd\b')) return 'gzip-compressed data';
  if (head.startsWith('BZh')) return 'bzip2-compressed data';
  if (/^\ufffd7zXZ\u0000/.test(head)) return 'xz-compressed data';
  if (/^\(\ufffd\/\ufffd/.test(head)) return 'zstd-compressed data';
  if (head.startsWith('PK\u0003\u0004')) return 'a zip archive (or a jar, docx, xlsx)';
  if (head.slice(257, 262) === 'ustar') return 'a tar archive';
  if (head.startsWith('\u0000asm')) return 'a WebAssembly module';
  if (head.startsWith('MZ')) return 'a Windows executable';
  if (head.startsWith('PACK\u0000')) return 'a git pack';
  return undefined;
}

/** The runs of printable characters, in order, as `strings -n 8` finds them. */
export function textRuns(output: string): string[] {
  const runs: string[] = [];
  const pattern = /[\t\x20-\x7e]{8,}/g;
  for (const match of output.matchAll(pattern)) {
    const run = match[0].trim();
    if (run.length >= MIN_RUN) runs.push(run);
  }
  return runs;
}

export function cutRun(run: string): string {
  return run.length <= MAX_RUN_SHOWN ? run : `${run.slice(0, MAX_RUN_SHOWN)}…`;
}

/** The summary of a binary output, or undefined when the output is text. */
export function reduceBinaryOutput(input: BinaryInput): string | undefined {
  if (!looksBinary(input.output)) return undefined;
  const bytes =
    input.bytes === undefined
      ? `about ${Buffer.byteLength(input.output).toLocaleString('en-US')} bytes`
      : `${input.bytes.toLocaleString('en-US')} bytes`;
  const unread = input.partial === undefined ? '' : `; ${input.partial}`;
  const decoded = utf16Text(input.output);
  if (decoded !== undefined) {
    const shown =
      decoded.length <= input.budget
        ? decoded
        : `${decoded.slice(0, input.budget)}\n[… cut at ${input.budget.toLocaleString('en-US')} characters]`;
    return `[UTF-16 text, ${bytes}${unread}; shown decoded (convert it with \`iconv -f UTF-16 -t UTF-8\`):]\n${shown}`;
  }
  const kind = kindOf(input.output);
  const header = `[binary output, ${bytes}${kind ? `: ${kind}` : ''}${unread}; its bytes are not shown]`;
  const runs = textRuns(input.output);
  const advice = '[look at it with `file`, `xxd … | head` or `strings …`]';
  if (runs.length === 0) return `${header}\n[no readable text in it]\n${advice}`;
  // The first runs (headers, schemas, file names) and the last (a trailer, an error printed after it), within the budget.
  const room = Math.max(4, Math.floor(input.budget / 100));
  const head = runs.length <= room ? runs : runs.slice(0, room - Math.floor(room / 4));
  const tail = runs.length <= room ? [] : runs.slice(runs.length - Math.floor(room / 4));
  const which = runs.length <= room ? '' : `; the first ${head.length} and the last ${tail.length}`;
  const listed = [
    ...head.map(cutRun),
    ...(tail.length > 0
      ? [`[… ${(runs.length - head.length - tail.length).toLocaleString('en-US')} more runs …]`]
      : []),
    ...tail.map(cutRun),
  ];
  return `${header}\n[readable text in it: ${runs.length.toLocaleString('en-US')} run${runs.length === 1 ? '' : 's'} of ${MIN_RUN} or more printable characters${which}:]\n${listed.join('\n')}\n${advice}`;
}
