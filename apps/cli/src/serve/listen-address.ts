import { isIP } from 'node:net';
import { CliError } from '../output.js';

export interface ListenAddress {
  /** Host as given, without IPv6 brackets. */
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** Parses `HOST:PORT` (`[::1]:PORT` for IPv6). */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  const host = match?.[1] ?? match?.[2];
  if (!host || !Number.isInteger(port) || port > 65_535) {
    throw new CliError(
      `--http "${text}" is not a HOST:PORT address.`,
      'Pass e.g. --http 127.0.0.1:8765 (port 0 picks a free port; IPv6 as [::1]:8765).',
    );
  }
  return { host, port };
}

/** localhost, 127.0.0.0/8 and ::1 (also as an IPv4-mapped address). */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) === 6) return name === '::1' || name === '0:0:0:0:0:0:0:1' || name.startsWith('::ffff:127.');
  return false;
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The host as it appears in a URL or a Host header (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
