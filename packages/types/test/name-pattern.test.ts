import { describe, expect, it } from 'vitest';
import { matchesNamePattern } from '../src/index.js';

describe('matchesNamePattern', () => {
  it('matches a name written out in full only when it is the same name', () => {
    expect(matchesNamePattern('read_file', 'read_file')).toBe(true);
    expect(matchesNamePattern('read_file', 'read_files')).toBe(false);
  });

  it('lets * stand for any run of characters and ? for exactly one', () => {
    expect(matchesNamePattern('mcp__github__*', 'mcp__github__create_issue')).toBe(true);
    expect(matchesNamePattern('mcp__*__delete_*', 'mcp__jira__delete_ticket')).toBe(true);
    expect(matchesNamePattern('mcp__github__*', 'mcp__gitlab__create_issue')).toBe(false);
    expect(matchesNamePattern('kanban_?et', 'kanban_get')).toBe(true);
    expect(matchesNamePattern('kanban_?et', 'kanban_reset')).toBe(false);
  });

  it('reads dots, plus signs and brackets in a pattern as themselves', () => {
    expect(matchesNamePattern('a.b_*', 'a.b_tool')).toBe(true);
    expect(matchesNamePattern('a.b_*', 'aXb_tool')).toBe(false);
    expect(matchesNamePattern('x+[y]*', 'x+[y]z')).toBe(true);
  });
});
