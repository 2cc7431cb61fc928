import { describe, expect, it } from 'vitest';
import { matchesUrlSpecifier, PermissionEngine } from '../src/index.js';
import { TOOL_SPECS } from './workspace-fixture.js';

describe('url rules', () => {
  it('matches the domain and its subdomains only', () => {
    expect(matchesUrlSpecifier('domain:example.com', 'https://example.com/a')).toBe(true);
    expect(matchesUrlSpecifier('domain:example.com', 'http://api.docs.example.com:8080/a')).toBe(true);
    expect(matchesUrlSpecifier('domain:example.com', 'https://example.com.evil.net/')).toBe(false);
    expect(matchesUrlSpecifier('domain:example.com', 'https://badexample.com/')).toBe(false);
    expect(matchesUrlSpecifier('domain:example.com', 'https://example.com@evil.net/')).toBe(false);
    expect(matchesUrlSpecifier('domain:example.com', 'https://xn--xample-2of.com/')).toBe(false);
    expect(matchesUrlSpecifier('domain:example.com', 'file:///example.com/etc/passwd')).toBe(false);
  });

  it('matches subdomains only for *.domain', () => {
    expect(matchesUrlSpecifier('domain:*.example.com', 'https://docs.example.com/')).toBe(true);
    expect(matchesUrlSpecifier('domain:*.example.com', 'https://example.com/')).toBe(false);
  });

  it('suggests a domain rule when a URL is asked', async () => {
    const engine = new PermissionEngine({
      workspace: process.cwd(),
      layers: [{ allow: ['web_fetch(domain:example.com)'] }],
    });
    const decision = await engine.decide({
      toolName: 'web_fetch',
      args: { url: 'https://docs.rs/picomatch' },
      spec: TOOL_SPECS.web_fetch,
    });
    expect(decision).toMatchObject({ behavior: 'ask', suggestedRule: 'web_fetch(domain:docs.rs)' });
  });

  it('denies a subdomain of a denied domain even when a broader allow exists', async () => {
    const engine = new PermissionEngine({
      workspace: process.cwd(),
      layers: [{ allow: ['web_fetch'], deny: ['web_fetch(domain:evil.net)'] }],
    });
    const decision = await engine.decide({
      toolName: 'web_fetch',
      args: { url: 'https://cdn.evil.net/x' },
      spec: TOOL_SPECS.web_fetch,
    });
    expect(decision.behavior).toBe('deny');
  });
});
