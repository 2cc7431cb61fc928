import { isUtf8 } from 'node:buffer';

export type TextEncodingName = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

export type DecodedText =
  | { kind: 'text'; text: string; encoding: TextEncodingName }
  | { kind: 'binary'; reason: string };

const BINARY_SNIFF_BYTES = 8192;

function swapBytes(buffer: Buffer): Buffer {
  const swapped = Buffer.from(buffer.subarray(0, buffer.length - (buffer.length % 2)));
  swapped.swap16();
  return swapped;
}

/** Decodes by BOM; without one, UTF-8 if valid and free of NUL bytes, else binary. */
export function decodeText(buffer: Buffer): DecodedText {
  if (buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) {
    return { kind: 'text', text: buffer.subarray(3).toString('utf8'), encoding: 'utf8-bom' };
  }
  if (buffer.length >= 2 && buffer[0] === 0xff && buffer[1] === 0xfe) {
    return { kind: 'text', text: buffer.subarray(2).toString('utf16le'), encoding: 'utf16le' };
  }
  if (buffer.length >= 2 && buffer[0] === 0xfe && buffer[1] === 0xff) {
    return { kind: 'text', text: swapBytes(buffer.subarray(2)).toString('utf16le'), encoding: 'utf16be' };
  }
  if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return { kind: 'binary', reason: 'it contains NUL bytes' };
  }
  if (!isUtf8(buffer)) return { kind: 'binary', reason: 'it is not valid UTF-8' };
  return { kind: 'text', text: buffer.toString('utf8'), encoding: 'utf8' };
}

export function encodeText(text: string, encoding: TextEncodingName): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), swapBytes(Buffer.from(text, 'utf16le'))]);
  }
}

const IMAGE_SIGNATURES: ReadonlyArray<{ mimeType: string; matches: (buffer: Buffer) => boolean }> = [
  {
    mimeType: 'image/png',
    matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { mimeType: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    mimeType: 'image/gif',
    matches: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  },
  {
    mimeType: 'image/webp',
    matches: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** Image type by magic bytes, never by file extension. */
export function detectImageMimeType(buffer: Buffer): string | undefined {
  return IMAGE_SIGNATURES.find((signature) => signature.matches(buffer))?.mimeType;
}
