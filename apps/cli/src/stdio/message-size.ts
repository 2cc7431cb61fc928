import { CliError } from '../output.js';

/** Largest message `serve` (stdio) and `rpc` read unless told otherwise: far below memory, far above any real call. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const SMALLEST = 1024;
const LARGEST = 1024 * 1024 * 1024;
const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kib: 1024,
  k: 1024,
  mib: 1024 ** 2,
  m: 1024 ** 2,
  gib: 1024 ** 3,
  g: 1024 ** 3,
};

/** `--max-message-size 16MiB` (also `512KiB`, `1048576`): bytes, checked with an error that says what to pass. */
export function parseMessageSize(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_MESSAGE_BYTES;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isFinite(bytes) || bytes < SMALLEST || bytes > LARGEST)
    throw new CliError(
      `--max-message-size must be a size from 1KiB to 1GiB, not "${text}".`,
      'For example --max-message-size 64MiB (units: B, KiB, MiB, GiB; a bare number is bytes).',
    );
  return bytes;
}

/** 16 MiB, 512 KiB or 300 bytes, for messages that say what a limit is. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
