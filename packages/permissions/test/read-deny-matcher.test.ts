import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadDenyMatcher, PermissionEngine } from '../src/index.js';

let workspace: string;
beforeAll(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'quiver-read-deny-')));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const DENY = ['read_file(.env)', 'read_file(**/.env)', 'write_file(**/.git/**)', 'terminal(cat:*)'];

describe('createReadDenyMatcher', () => {
  it('names the read deny that covers a real path, as the engine decides a read of it', async () => {
    const matches = createReadDenyMatcher({ workspace, deny: DENY, toolName: 'grep_search' });
    const engine = new PermissionEngine({ workspace, layers: [{ deny: DENY, allow: ['read_file'] }] });
    for (const relative of ['.env', 'sub/deep/.env', 'src/main.ts', '.git/config', 'envelope.txt']) {
      const decided = await engine.decide({
        toolName: 'read_file',
        args: { path: relative },
        spec: { kind: 'read', paths: (args) => [(args as { path: string }).path] },
      });
      const rule = matches(path.join(workspace, relative));
      expect({ relative, denied: rule !== undefined }).toEqual({
        relative,
        denied: decided.behavior === 'deny',
      });
    }
    expect(matches(path.join(workspace, 'sub/.env'))).toBe('read_file(**/.env)');
  });

  it('counts a path deny written for a tool of unknown kind, and ignores write and command denies', () => {
    const matches = createReadDenyMatcher({
      workspace,
      deny: ['custom_reader(secrets/**)', 'write_file(**/.git/**)', 'terminal(cat:*)'],
    });
    expect(matches(path.join(workspace, 'secrets/key'))).toBe('custom_reader(secrets/**)');
    expect(matches(path.join(workspace, '.git/config'))).toBeUndefined();
    expect(matches(path.join(workspace, 'cat'))).toBeUndefined();
  });

  it('matches absolute rules against files outside the workspace', () => {
    const matches = createReadDenyMatcher({ workspace, deny: ['read_file(/etc/**)'] });
    expect(matches('/etc/shadow')).toBe('read_file(/etc/**)');
    expect(matches(path.join(workspace, 'etc/shadow'))).toBeUndefined();
  });
});
