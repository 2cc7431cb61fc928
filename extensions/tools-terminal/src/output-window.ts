import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '@quiver/types';
import { ByteRing } from './byte-ring.js';
import { pruneSpillFiles } from './spill-retention.js';

export const DEFAULT_WINDOW_BYTES = 32 * 1024;
/** A spill file stops growing here: `yes` under a long timeout would otherwise fill the disk. */
export const DEFAULT_SPILL_LIMIT_BYTES = 64 * 1024 * 1024;

export interface OutputWindowOptions {
  headBytes?: number;
  tailBytes?: number;
  /** Where the full output is written once it no longer fits; absent = it is not kept. */
  spillDir?: string;
  spillName?: string;
  /** The most bytes a spill file takes; the rest of the output is not kept. */
  spillLimitBytes?: number;
}

export interface WindowedOutput {
  /** Head and tail joined by a marker when the middle was cut. */
  text: string;
  totalBytes: number;
  truncated: boolean;
  spillFile?: string;
  /** Set when the spill file holds only the first `spillLimitBytes` of the output. */
  spillCapped?: boolean;
}

const isContinuationByte = (byte: number) => (byte & 0b1100_0000) === 0b1000_0000;

/** Drops an incomplete UTF-8 sequence at the end of `buffer`. */
function trimIncompleteEnd(buffer: Buffer): Buffer {
  let start = buffer.length - 1;
  while (start >= 0 && buffer.length - start <= 4 && isContinuationByte(buffer[start] as number)) start--;
  if (start < 0) return buffer;
  const lead = buffer[start] as number;
  const expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buffer.length - start < expected ? buffer.subarray(0, start) : buffer;
}

/** Drops continuation bytes at the start of `buffer` (the rest of a character cut in two). */
function trimIncompleteStart(buffer: Buffer): Buffer {
  let start = 0;
  while (start < buffer.length && start < 4 && isContinuationByte(buffer[start] as number)) start++;
  return buffer.subarray(start);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/**
 * Keeps the first and last bytes of an output of any size in bounded memory. When the output
 * outgrows the window, everything (from the first byte) is streamed to a spill file instead.
 */
export class OutputWindow {
  private readonly headBytes: number;
  private readonly tailBytes: number;
  private readonly head: Buffer;
  private headLength = 0;
  private readonly tail: ByteRing;
  private total = 0;
  private spillDescriptor: number | undefined;
  private spillPath: string | undefined;
  private spillError: string | undefined;
  private spilledBytes = 0;
  private spillCapped = false;
  private readonly spillLimit: number;

  constructor(private readonly options: OutputWindowOptions = {}) {
    this.headBytes = options.headBytes ?? DEFAULT_WINDOW_BYTES;
    this.tailBytes = options.tailBytes ?? DEFAULT_WINDOW_BYTES;
    this.head = Buffer.alloc(this.headBytes);
    this.tail = new ByteRing(this.tailBytes);
    this.spillLimit = Math.max(0, options.spillLimitBytes ?? DEFAULT_SPILL_LIMIT_BYTES);
  }

  get totalBytes(): number {
    return this.total;
  }

  write(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    if (
      this.spillDescriptor === undefined &&
      this.spillError === undefined &&
      this.spillPath === undefined &&
      this.total > this.headBytes + this.tailBytes
    ) {
      this.spill(() => this.openSpill());
    }
    if (this.spillDescriptor !== undefined) this.spill(() => this.writeSpill(chunk));
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const taken = Math.min(this.headBytes - this.headLength, rest.length);
      rest.copy(this.head, this.headLength, 0, taken);
      this.headLength += taken;
      rest = rest.subarray(taken);
    }
    if (rest.length === 0) return;
    this.tail.write(rest);
  }

  /** A full disk must not crash the host: the command keeps running, the result says the output was not kept. */
  private spill(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.spillError = errorMessage(error);
      this.close();
      this.spillPath = undefined;
    }
  }

  private openSpill(): void {
    if (this.options.spillDir === undefined) return;
    mkdirSync(this.options.spillDir, { recursive: true });
    const name =
      this.options.spillName ??
      `output-${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.log`;
    this.spillPath = path.join(this.options.spillDir, name);
    this.spillDescriptor = openSync(this.spillPath, 'w', 0o600);
    this.writeSpill(this.head.subarray(0, this.headLength));
    this.writeSpill(this.tail.contents());
    void pruneSpillFiles(this.options.spillDir);
  }

  /** Writes up to the spill limit; at the limit the file is closed and keeps what it has. */
  private writeSpill(bytes: Buffer): void {
    if (this.spillDescriptor === undefined || bytes.length === 0) return;
    const room = this.spillLimit - this.spilledBytes;
    const part = bytes.length > room ? bytes.subarray(0, Math.max(0, room)) : bytes;
    if (part.length > 0) writeSync(this.spillDescriptor, part);
    this.spilledBytes += part.length;
    if (part.length < bytes.length) {
      this.spillCapped = true;
      this.close();
    }
  }

  /** Closes the spill file; the window keeps its text. */
  close(): void {
    if (this.spillDescriptor === undefined) return;
    closeSync(this.spillDescriptor);
    this.spillDescriptor = undefined;
  }

  result(): WindowedOutput {
    const head = this.head.subarray(0, this.headLength);
    const tail = this.tail.contents();
    const truncated = this.total > this.headLength + tail.length;
    if (!truncated) {
      return { text: Buffer.concat([head, tail]).toString('utf8'), totalBytes: this.total, truncated: false };
    }
    const headText = trimIncompleteEnd(head).toString('utf8');
    const tailText = trimIncompleteStart(tail).toString('utf8');
    const cut = this.total - Buffer.byteLength(headText) - Buffer.byteLength(tailText);
    const where = this.spillPath
      ? this.spillCapped
        ? `first ${formatBytes(this.spilledBytes)} of the output in ${this.spillPath}`
        : `full output in ${this.spillPath}`
      : this.spillError
        ? `full output could not be saved: ${this.spillError}`
        : 'full output not kept';
    const marker = `\n[… ${cut.toLocaleString('en-US')} bytes cut from the middle; ${where} …]\n`;
    const result: WindowedOutput = {
      text: headText + marker + tailText,
      totalBytes: this.total,
      truncated: true,
    };
    if (this.spillPath) result.spillFile = this.spillPath;
    if (this.spillCapped) result.spillCapped = true;
    return result;
  }
}
