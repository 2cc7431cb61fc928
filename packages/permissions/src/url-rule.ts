import { specifierError } from './specifier-error.js';

/** `domain:example.com` (that host and its subdomains), `domain:*.example.com` (subdomains only), or one exact URL. */
export type UrlSpecifier =
  | { kind: 'domain'; host: string; subdomainsOnly: boolean }
  | { kind: 'url'; href: string };

const HOST = /^(?:\[[0-9a-f:.]+\]|[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*)$/iu;

/**
 * Parses a URL specifier, or throws `config_invalid`. The domain is normalized as URLs normalize
 * hosts (lower case, punycode), so `domain:bücher.de` covers `https://bücher.de/`.
 */
export function parseUrlSpecifier(specifier: string): UrlSpecifier {
  const trimmed = specifier.trim();
  const fail = (problem: string, fix: string) => specifierError('url', trimmed, problem, fix);
  if (trimmed.startsWith('domain:')) {
    let domain = trimmed.slice('domain:'.length).trim().replace(/\.$/, '');
    const subdomainsOnly = domain.startsWith('*.');
    if (subdomainsOnly) domain = domain.slice(2);
    if (domain === '')
      throw fail('it names no domain', 'Write the host after "domain:", e.g. domain:example.com.');
    if (!HOST.test(domain))
      throw fail(
        `"${domain}" is not a host name (a domain takes no scheme, port, path or "*" but a leading "*.")`,
        'Write the host alone, e.g. domain:example.com or domain:*.example.com.',
      );
    const host = parseUrl(`http://${domain}/`)?.hostname;
    if (host === undefined || host === '')
      throw fail(`"${domain}" is not a host name`, 'Write the host alone, e.g. domain:example.com.');
    return { kind: 'domain', host, subdomainsOnly };
  }
  const parsed = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? parseUrl(trimmed) : undefined;
  if (parsed === undefined)
    throw fail(
      'it is neither domain:HOST nor a whole URL with a scheme',
      `Write domain:${trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/:]/)[0] || 'example.com'} for a host and its subdomains, or the whole URL (https://…).`,
    );
  if (trimmed.includes('*'))
    throw fail(
      '"*" is not a wildcard in a URL: a URL specifier matches that one URL exactly',
      'Use domain:HOST (or domain:*.HOST) to cover more than one URL.',
    );
  return { kind: 'url', href: parsed.href };
}

/**
 * True when `url` is covered by a URL specifier: `domain:example.com` covers that host and
 * its subdomains (`docs.example.com`, never `example.com.evil.net`); `domain:*.example.com`
 * covers subdomains only, whatever the scheme; anything else must equal the URL exactly.
 */
export function matchesUrlSpecifier(specifier: string | UrlSpecifier, url: string): boolean {
  const rule = typeof specifier === 'string' ? parseUrlSpecifier(specifier) : specifier;
  const parsed = parseUrl(url);
  if (rule.kind === 'url') return parsed !== undefined && parsed.href === rule.href;
  if (!parsed || parsed.hostname === '') return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (rule.subdomainsOnly) return host.endsWith(`.${rule.host}`);
  return host === rule.host || host.endsWith(`.${rule.host}`);
}

export function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
