import { QuiverError } from '@quiver/types';

/**
 * The URL as it may be shown to a person or written to a log: the password is replaced by `***`.
 * A string that does not parse is not echoed at all, since it may be a password pasted by mistake.
 */
export function redactPostgresUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(a value that is not a URL)';
  }
  if (parsed.password) parsed.password = '***';
  parsed.searchParams.forEach((_, key) => {
    if (key.toLowerCase() === 'password') parsed.searchParams.set(key, '***');
  });
  return parsed.toString();
}

/** Throws `config_invalid` unless `url` is a `postgres://` or `postgresql://` URL. */
export function assertPostgresUrl(url: string, where: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === 'postgres:' || protocol === 'postgresql:') return;
  throw new QuiverError(
    'config_invalid',
    `The PostgreSQL storage URL from ${where} is not a postgres:// URL: ${redactPostgresUrl(url)}.`,
    {
      fix: `Set ${where} to a URL like postgres://USER:PASSWORD@HOST:5432/DATABASE.`,
      details: { where, url: redactPostgresUrl(url) },
    },
  );
}
