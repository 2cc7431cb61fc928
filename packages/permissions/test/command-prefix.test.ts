import { describe, expect, it } from 'vitest';
import {
  matchesCommandPrefix,
  matchesStringSpecifier,
  parsePermissionRule,
  ruleMatchesToolName,
} from '../src/index.js';

describe('matchesCommandPrefix', () => {
  it('matches a prefix followed by a word boundary and nothing else', () => {
    expect(matchesCommandPrefix('npm run test:*', ['npm', 'run', 'test'])).toBe(true);
    expect(matchesCommandPrefix('npm run test:*', ['npm', 'run', 'test:unit', '--watch'])).toBe(true);
    expect(matchesCommandPrefix('npm run test:*', ['npm', 'run', 'test-and-publish'])).toBe(false);
    expect(matchesCommandPrefix('git status:*', ['git', 'status.evil'])).toBe(false);
    expect(matchesCommandPrefix('npm run test:*', ['npm', 'run', 'testfoo'])).toBe(false);
    expect(matchesCommandPrefix('npm run test:*', ['npm', 'run', 'test_all'])).toBe(false);
    expect(matchesCommandPrefix('npm run test:*', ['npm', 'run'])).toBe(false);
  });

  it('requires the program name itself to match exactly', () => {
    expect(matchesCommandPrefix('git:*', ['git', 'log'])).toBe(true);
    expect(matchesCommandPrefix('git:*', ['git-lfs', 'push'])).toBe(false);
    expect(matchesCommandPrefix('git:*', ['git.evil'])).toBe(false);
  });

  it('matches a specifier without :* only against the exact words', () => {
    expect(matchesCommandPrefix('git status', ['git', 'status'])).toBe(true);
    expect(matchesCommandPrefix('git status', ['git', 'status', '--short'])).toBe(false);
    expect(matchesCommandPrefix('git   status ', ['git', 'status'])).toBe(true);
  });

  it('does not let reordered flags match', () => {
    expect(matchesCommandPrefix('git status:*', ['git', '-C', '/elsewhere', 'status'])).toBe(false);
    expect(matchesCommandPrefix('git status:*', ['git', 'status', '-C', '/elsewhere'])).toBe(true);
  });

  it('compares words case-sensitively', () => {
    expect(matchesCommandPrefix('git status:*', ['GIT', 'status'])).toBe(false);
    expect(matchesCommandPrefix('git status:*', ['git', 'Status'])).toBe(false);
  });

  it('keeps a quoted word with a space as one word', () => {
    expect(matchesCommandPrefix('git status:*', ['git status'])).toBe(false);
    expect(matchesCommandPrefix("git commit -m 'fix it'", ['git', 'commit', '-m', 'fix it'])).toBe(true);
  });
});

describe('rules and tool names', () => {
  it('parses blanket rules and specifiers', () => {
    expect(parsePermissionRule('terminal(git status:*)')).toEqual({
      source: 'terminal(git status:*)',
      tool: 'terminal',
      specifier: 'git status:*',
    });
    expect(parsePermissionRule('mcp__github')).toEqual({ source: 'mcp__github', tool: 'mcp__github' });
    expect(() => parsePermissionRule('terminal()')).toThrow(/empty specifier/);
    expect(() => parsePermissionRule('bad rule(')).toThrow(/Invalid permission rule/);
  });

  it('names every tool of an MCP server with mcp__server', () => {
    expect(ruleMatchesToolName(parsePermissionRule('mcp__github'), 'mcp__github__create_issue')).toBe(true);
    expect(ruleMatchesToolName(parsePermissionRule('mcp__github'), 'mcp__github_evil__create_issue')).toBe(
      false,
    );
    expect(ruleMatchesToolName(parsePermissionRule('mcp__github__*'), 'mcp__github__list')).toBe(true);
  });

  it('matches plain specifiers exactly or by prefix at a word boundary', () => {
    expect(matchesStringSpecifier('project:*', 'project:notes')).toBe(true);
    expect(matchesStringSpecifier('project:*', 'projects')).toBe(false);
    expect(matchesStringSpecifier('notes', 'notes')).toBe(true);
  });
});
