/**
 * True when `url` is covered by a URL specifier: `domain:example.com` covers that host and
 * its subdomains (`docs.example.com`, never `example.com.evil.net`); `domain:*.example.com`
 * covers subdomains only, whatever the scheme; anything else must equal the URL exactly.
 */
export function matchesUrlSpecifier(specifier: string, url: string): boolean {
  const trimmed = specifier.trim();
  const parsed = parseUrl(url);
  if (!trimmed.startsWith('domain:')) {
    const expected = parseUrl(trimmed);
    return parsed !== undefined && expected !== undefined && parsed.href === expected.href;
  }
  if (!parsed || parsed.hostname === '') return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  let domain = trimmed.slice('domain:'.length).trim().toLowerCase().replace(/\.$/, '');
  if (domain.startsWith('*.')) {
    domain = domain.slice(2);
    return host.endsWith(`.${domain}`);
  }
  return host === domain || host.endsWith(`.${domain}`);
}

export function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
