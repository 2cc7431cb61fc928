import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolResult } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const textOf = (result: ToolResult | undefined) => (result?.ok ? result.value : `${result?.error}`);

describe('read denies a session adds', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-session-denies-')));
    mkdirSync(path.join(workspace, 'private'));
    writeFileSync(path.join(workspace, 'private', 'notes.txt'), 'TOPSECRET in private\n');
    writeFileSync(path.join(workspace, 'public.txt'), 'TOPSECRET in public\n');
    quiver = await createQuiver({ workspace, discoverConfig: false });
  });

  afterAll(async () => {
    await quiver.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('withhold the files they cover from grep_search, file_search and list_dir', async () => {
    const session = quiver.createSession({ permissions: { deny: ['read_file(private/**)'] } });
    try {
      const [grep, found, listed] = await session.execute([
        { name: 'grep_search', args: { pattern: 'TOPSECRET' } },
        { name: 'file_search', args: { pattern: '**/*.txt' } },
        { name: 'list_dir', args: { path: '.', depth: 2 } },
      ]);
      expect(textOf(grep)).toContain('public.txt:1:TOPSECRET in public');
      expect(textOf(grep)).not.toContain('in private');
      for (const result of [found, listed]) {
        expect(textOf(result)).toContain('public.txt');
        expect(textOf(result)).not.toContain('notes.txt');
      }
      expect(textOf(grep)).toContain('read_file(private/**)');
    } finally {
      await session.close();
    }
  });

  it('reach child agents, which keep their parent’s denies', async () => {
    const parent = quiver.createSession({ permissions: { deny: ['read_file(private/**)'] } });
    const child = parent.createChild({ agent: 'subagent' });
    try {
      const [grep] = await child.execute([{ name: 'grep_search', args: { pattern: 'TOPSECRET' } }]);
      expect(textOf(grep)).toContain('in public');
      expect(textOf(grep)).not.toContain('in private');
    } finally {
      await child.close();
      await parent.close();
    }
  });

  it('leave another session of the same personality free to read those files', async () => {
    const session = quiver.createSession();
    try {
      const [grep] = await session.execute([{ name: 'grep_search', args: { pattern: 'TOPSECRET' } }]);
      expect(textOf(grep)).toContain('in private');
    } finally {
      await session.close();
    }
  });
});
