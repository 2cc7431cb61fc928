import type { PermissionBehavior, ToolPermissionSpec } from '@quiver/types';
import { QuiverError } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPermissionRule, createReadDenyMatcher, PermissionEngine } from '../src/index.js';
import { createWorkspaceFixture, TOOL_SPECS, type WorkspaceFixture } from './workspace-fixture.js';

let fixture: WorkspaceFixture;
beforeAll(async () => {
  fixture = await createWorkspaceFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

const read = (path: string) => ({ toolName: 'read_file', args: { path }, spec: TOOL_SPECS.read_file });
const memorySpec: ToolPermissionSpec<{ key: string }> = { kind: 'memory', specifier: (args) => args.key };

function engineError(layer: Partial<Record<PermissionBehavior, string[]>>, toolKinds = {}): QuiverError {
  try {
    new PermissionEngine({ workspace: fixture.workspace, layers: [layer], toolKinds });
  } catch (error) {
    expect(error).toBeInstanceOf(QuiverError);
    return error as QuiverError;
  }
  throw new Error(`the engine accepted ${JSON.stringify(layer)}`);
}

describe('a rule whose specifier does not parse', () => {
  it('refuses the two denies of the report instead of allowing src/a/b.key', () => {
    for (const rule of ['read_file(src/**/*.{key,pem)', 'read_file(src/[**)']) {
      const error = engineError({ allow: ['read_file'], deny: [rule] });
      expect(error.code).toBe('config_invalid');
      expect(error.message).toContain(rule);
      expect(error.message).toMatch(/never closed/);
      expect(error.fix).toMatch(/\\/);
    }
  });

  it('denies src/a/b.key once the braces are closed', async () => {
    const engine = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [{ allow: ['read_file'], deny: ['read_file(src/**/*.{key,pem})'] }],
    });
    expect((await engine.decide(read('src/a/b.key'))).behavior).toBe('deny');
    expect((await engine.decide(read('src/a/b.pem'))).behavior).toBe('deny');
    expect((await engine.decide(read('src/a.ts'))).behavior).toBe('allow');
  });

  it.each([
    ['read_file(src/a\\)', /lone backslash/],
    ['read_file(src/{a,b}})', /closes no "\{"/],
    ['read_file(src/a])', /closes no "\["/],
    ['read_file(src/*.(ts|js)', /never closed/],
    ['read_file(src/[])', /empty/],
    ['read_file(src/[z-a])', /not valid/],
    ['read_file(!secrets/**)', /negates/],
    ['read_file($HOME/.ssh/**)', /environment variables/],
    ['read_file(~root/.ssh/**)', /not expanded/],
    ['write_file(secrets/{a)', /never closed/],
    ['terminal(git "status)', /never closed/],
    ['terminal(rm -rf *)', /only a trailing ":\*"/],
    ['terminal(:*)', /names no command/],
    ['terminal(echo \\)', /lone backslash/],
    ['web_fetch(domain:)', /names no domain/],
    ['web_fetch(domain:https://evil.net)', /not a host name/],
    ['web_fetch(domain:*)', /not a host name/],
    ['web_fetch(domain:evil.net:443)', /not a host name/],
    ['web_fetch(evil.net)', /neither domain:HOST nor a whole URL/],
    ['web_fetch(localhost:8080)', /neither domain:HOST nor a whole URL/],
    ['web_fetch(https://evil.net/*)', /not a wildcard/],
    ['mcp__files__read(secrets/{a)', /never closed/],
    ['mcp__(x)', /names no MCP server/],
    ['mcp__github__', /names no MCP tool/],
    ['*(secrets/**)', /tool pattern/],
    ['read_*(secrets/**)', /tool pattern/],
  ])('refuses the deny %s with config_invalid saying what is wrong', (rule, problem) => {
    const error = engineError({ deny: [rule] });
    expect(error.code).toBe('config_invalid');
    expect(error.message).toMatch(problem);
    expect(error.message).toContain(rule);
    expect(error.fix).toBeTruthy();
  });

  it('refuses an ask or allow with a specifier on an MCP tool, which is decided by name alone', () => {
    expect(engineError({ ask: ['mcp__github__create_issue(repo:x)'] }).message).toMatch(
      /by their name alone/,
    );
    expect(engineError({ allow: ['mcp__github(x)'] }).message).toMatch(/by their name alone/);
  });

  it('reads the specifier by the kind the engine knows for the tool', () => {
    expect(engineError({ deny: ['remember(notes*)'] }, { remember: 'memory' }).message).toMatch(
      /only a trailing ":\*"/,
    );
    expect(engineError({ ask: ['remember(:*)'] }, { remember: 'memory' }).message).toMatch(
      /nothing comes before/,
    );
    expect(engineError({ deny: ['fetcher(example.com)'] }, { fetcher: 'url' }).message).toMatch(/neither/);
  });

  it('fails the decision closed when a tool shows a kind its rule does not parse as', async () => {
    // At construction `remember` is unknown, so its allow is not read yet; the call teaches the kind.
    const engine = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [{ allow: ['remember(a*b)'] }],
    });
    await expect(
      engine.decide({ toolName: 'remember', args: { key: 'a*b' }, spec: memorySpec }),
    ).rejects.toThrow(/does not parse/);
  });

  it('fails every decision for a tool whose deny does not parse as the kind its call shows', async () => {
    const engine = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [{ allow: ['terminal', 'runner'], deny: ['runner(git "push)'] }],
    });
    const run = { toolName: 'runner', args: { command: 'git push' }, spec: TOOL_SPECS.terminal };
    await expect(engine.decide(run)).rejects.toThrow(/double quote at character 5 is never closed/);
    await expect(engine.decide(run)).rejects.toThrow(/never closed/);
    expect(engine.decideNow(run)).toBeUndefined();
  });

  it('keeps an allow for one whole command line whose words do not split, and refuses such a deny', async () => {
    const engine = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [{ allow: ['terminal(ls *.md)'] }],
    });
    const shell = (command: string) => ({
      toolName: 'terminal',
      args: { command },
      spec: TOOL_SPECS.terminal,
    });
    expect((await engine.decide(shell('ls *.md'))).behavior).not.toBe('deny');
    expect((await engine.decide(shell('ls *.ts'))).behavior).toBe('ask');
    expect(engineError({ deny: ['terminal(ls *.md)'] }).message).toMatch(/not a wildcard/);
    expect(engineError({ ask: ['terminal(git "push)'] }).message).toMatch(/never closed/);
  });

  it('refuses a grant that does not parse and ignores a saved one that no longer does', async () => {
    const saved = ['read_file(src/{a)', 'read_file(src/a.ts)'];
    const engine = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [{}],
      projectGrants: { list: () => saved, add: () => {}, remove: () => false, close: () => {} },
    });
    expect(() => engine.grant('read_file(docs/[x)', 'session')).toThrow(/never closed/);
    expect((await engine.decide(read('src/a.ts'))).behavior).toBe('allow');
    expect((await engine.decide(read('src/b.ts'))).behavior).toBe('ask');
  });

  it('refuses parent denies and read-deny matchers built from a deny that does not parse', () => {
    expect(
      () =>
        new PermissionEngine({ workspace: fixture.workspace, layers: [], parentDenies: ['grep(secrets/[)'] }),
    ).toThrow(/never closed/);
    expect(() =>
      createReadDenyMatcher({ workspace: fixture.workspace, deny: ['read_file(secrets/{a,b)'] }),
    ).toThrow(/never closed/);
  });
});

describe('specifiers that parse', () => {
  it('match what they say, escapes included', async () => {
    const engine = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [
        {
          allow: ['read_file', 'web_fetch(domain:BÜCHER.de)', 'terminal(echo "a b")'],
          deny: ['read_file(docs/\\[draft\\]/**)', 'read_file(src/\\*)', 'read_file(src/[ab].ts)'],
        },
      ],
    });
    expect((await engine.decide(read('docs/[draft]/x.md'))).behavior).toBe('deny');
    expect((await engine.decide(read('docs/d/x.md'))).behavior).toBe('allow');
    expect((await engine.decide(read('src/*'))).behavior).toBe('deny');
    expect((await engine.decide(read('src/c'))).behavior).toBe('allow');
    expect((await engine.decide(read('src/a.ts'))).behavior).toBe('deny');
    expect(
      (
        await engine.decide({
          toolName: 'web_fetch',
          args: { url: 'https://xn--bcher-kva.de/' },
          spec: TOOL_SPECS.web_fetch,
        })
      ).behavior,
    ).toBe('allow');
  });

  it('suggests a rule that names a path with glob characters literally', async () => {
    const engine = new PermissionEngine({ workspace: fixture.workspace, layers: [{}] });
    const decision = await engine.decide(read('app/[slug]/page.tsx'));
    expect(decision.suggestedRule).toBe('read_file(app/\\[slug\\]/page.tsx)');
    engine.grant(decision.suggestedRule as string, 'session');
    expect((await engine.decide(read('app/[slug]/page.tsx'))).behavior).toBe('allow');
    expect((await engine.decide(read('app/s/page.tsx'))).behavior).toBe('ask');
  });
});

/** A small seeded generator (mulberry32): the same malformed specifiers on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALID_PATHS = [
  'src/**',
  'src/**/*.{key,pem}',
  'secrets',
  'docs/*.md',
  '**/.env',
  'src/[ab].ts',
  '/tmp/**',
];
const VALID_COMMANDS = ['git status:*', 'rm:*', 'npm run test:*', "echo 'a b'", 'git push origin main'];
const VALID_URLS = ['domain:example.com', 'domain:*.example.com', 'https://example.com/a'];

/** Ways to break a specifier that every reader of that kind must refuse. */
const PATH_BREAKS: Array<(text: string, at: number) => string> = [
  (text, at) => `${text.slice(0, at)}{${text.slice(at)}`,
  (text, at) => `${text.slice(0, at)}[${text.slice(at)}`,
  (text, at) => `${text.slice(0, at)}(${text.slice(at)}`,
  (text, at) => `${text.slice(0, at)}}${text.slice(at)}`,
  (text, at) => `${text.slice(0, at)}]${text.slice(at)}`,
  (text) => `${text}\\`,
  (text, at) => `${text.slice(0, at)}[]${text.slice(at)}`,
  (text, at) => `${text.slice(0, at)}$HOME${text.slice(at)}`,
  (text) => `!${text}`,
  (text) => `~someone/${text.replace(/^\//, '')}`,
];
const COMMAND_BREAKS: Array<(text: string, at: number) => string> = [
  // An unclosed quote: the closing one dropped, or a lone one where no quote was.
  (text, at) => (text.includes("'") ? text.slice(0, -1) : `${text.slice(0, at)}"${text.slice(at)}`),
  (text, at) => (text.includes("'") ? text.replace("'", '') : `${text.slice(0, at)} '${text.slice(at)}`),
  (text) => `${text.replace(/:\*$/, '')} *`,
  (text) => `${text.replace(/:\*$/, '')}\\`,
  () => ':*',
];
const URL_BREAKS: Array<(text: string, at: number) => string> = [
  (text) => text.replace(/^domain:|^https:\/\//, ''),
  (text) => `${text}/*`.replace('domain:', 'domain:*'),
  (text) => (text.startsWith('domain:') ? `${text}:8080` : `${text}*`),
  () => 'domain:',
];

describe('generated malformed specifiers', () => {
  const next = random(34);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const cases: Array<{ rule: string; behavior: PermissionBehavior }> = [];
  for (let index = 0; index < 300; index++) {
    const kind = pick(['path', 'command', 'url'] as const);
    const [tool, valid, breaks] =
      kind === 'path'
        ? [pick(['read_file', 'grep', 'write_file', 'edit_file']), VALID_PATHS, PATH_BREAKS]
        : kind === 'command'
          ? ['terminal', VALID_COMMANDS, COMMAND_BREAKS]
          : ['web_fetch', VALID_URLS, URL_BREAKS];
    const text = pick(valid);
    // Inside a character class most characters are literal: break the text outside one.
    const outside = [...Array(text.length + 1).keys()].filter(
      (at) => (text.slice(0, at).match(/\[/g) ?? []).length === (text.slice(0, at).match(/\]/g) ?? []).length,
    );
    const broken = pick(breaks)(text, pick(outside));
    cases.push({ rule: `${tool}(${broken})`, behavior: pick(['deny', 'ask', 'deny'] as const) });
  }

  it('always fail to load with config_invalid, whatever else the layer allows', () => {
    for (const { rule, behavior } of cases) {
      const error = engineError({
        allow: ['read_file', 'grep', 'terminal', 'web_fetch'],
        [behavior]: [rule],
      });
      expect(error.code, rule).toBe('config_invalid');
      expect(error.message, rule).toContain(rule.trim());
      expect(() => checkPermissionRule(rule, behavior), rule).toThrow(QuiverError);
    }
  });

  it('never yield a decision that allows what the broken rule would have denied', async () => {
    // The whole chain a caller could take: load the rule, then decide. Loading must stop it.
    for (const { rule } of cases.slice(0, 60)) {
      let decided: string | undefined;
      try {
        const engine = new PermissionEngine({
          workspace: fixture.workspace,
          layers: [{ allow: ['read_file'], deny: [rule] }],
        });
        decided = (await engine.decide(read('src/a/b.key'))).behavior;
      } catch (error) {
        expect((error as QuiverError).code, rule).toBe('config_invalid');
      }
      expect(decided, rule).toBeUndefined();
    }
  });

  it('parse at load exactly when they compile at decision: random path specifiers', async () => {
    const alphabet = [
      'a',
      'b',
      '/',
      '*',
      '?',
      '[',
      ']',
      '{',
      '}',
      ',',
      '(',
      ')',
      '|',
      '\\',
      '.',
      '-',
      '!',
      '@',
      '+',
    ];
    for (let index = 0; index < 400; index++) {
      const length = 1 + Math.floor(next() * 10);
      const specifier = Array.from({ length }, () => pick(alphabet)).join('');
      const rule = `read_file(${specifier})`;
      let loaded: PermissionEngine | undefined;
      try {
        loaded = new PermissionEngine({ workspace: fixture.workspace, layers: [{ deny: [rule] }] });
      } catch (error) {
        // A specifier cut short by the rule's own parentheses fails the rule syntax instead.
        expect((error as QuiverError).code, rule).toBe('config_invalid');
      }
      if (loaded) await expect(loaded.decide(read('src/a.ts')), rule).resolves.toBeDefined();
    }
  });
});
