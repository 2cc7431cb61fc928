import fs from 'node:fs';

/** A readable index, or why it could not be read (the caller then looks at the whole tree). */
export type TrackedPaths = { kind: 'paths'; paths: string[] } | { kind: 'unreadable'; why: string };

const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * The paths a git index (`.git/index`, format versions 2, 3 and 4) tracks, relative to the work
 * tree. The index sits in the git directory, which the tools cannot write, so what it lists is
 * what a person's repository tracks. A split index (its entries live in another file) or any
 * format this reader does not know is reported as unreadable rather than guessed at.
 */
export function readTrackedPaths(indexFile: string, hashBytes = 20): TrackedPaths {
  let data: Buffer;
  try {
    if (fs.statSync(indexFile).size > MAX_INDEX_BYTES) return { kind: 'unreadable', why: 'too large' };
    data = fs.readFileSync(indexFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'paths', paths: [] };
    return { kind: 'unreadable', why: (error as Error).message };
  }
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC')
    return { kind: 'unreadable', why: 'no index signature' };
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return { kind: 'unreadable', why: `index version ${version}` };
  const count = data.readUInt32BE(8);
  const paths: string[] = [];
  let offset = 12;
  let previous = '';
  for (let index = 0; index < count; index++) {
    const start = offset;
    const flagsAt = start + 40 + hashBytes;
    if (flagsAt + 2 > data.length) return { kind: 'unreadable', why: 'truncated entry' };
    const flags = data.readUInt16BE(flagsAt);
    let nameAt = flagsAt + 2;
    if (version >= 3 && flags & 0x4000) nameAt += 2;
    let name: string;
    if (version === 4) {
      const { value: strip, next } = readVarint(data, nameAt);
      const end = data.indexOf(0, next);
      if (end === -1 || strip > previous.length) return { kind: 'unreadable', why: 'bad path' };
      name = previous.slice(0, previous.length - strip) + data.toString('utf8', next, end);
      offset = end + 1;
    } else {
      const end = data.indexOf(0, nameAt);
      if (end === -1) return { kind: 'unreadable', why: 'bad path' };
      name = data.toString('utf8', nameAt, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      offset = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previous = name;
    paths.push(name);
  }
  // Extensions: a split index keeps entries elsewhere ("link"); a sparse index has directory entries.
  while (offset + 8 <= data.length - hashBytes) {
    const signature = data.toString('latin1', offset, offset + 4);
    if (signature === 'link' || signature === 'sdir')
      return { kind: 'unreadable', why: `index extension ${signature}` };
    offset += 8 + data.readUInt32BE(offset + 4);
  }
  return { kind: 'paths', paths };
}

function readVarint(data: Buffer, at: number): { value: number; next: number } {
  // git's offset varint: each continuation adds one before shifting.
  let position = at;
  let byte = data[position++] ?? 0;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = data[position++] ?? 0;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return { value, next: position };
}
