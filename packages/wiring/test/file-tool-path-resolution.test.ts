import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PermissionPrompt, ToolResult } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';
import {
  changedFiles,
  FIXTURE_DIRECTORIES,
  markerName,
  PATH_FORMS,
  type PathForm,
  resetFixture,
  snapshot,
} from './path-forms.js';

/**
 * One row per file tool and operation: the arguments for a path written in some form, and
 * whether it opens an existing file, creates one, or works in a directory.
 */
interface ToolRow {
  name: string;
  tool: string;
  target: 'existing' | 'new' | 'directory';
  args: (written: (target: string) => string) => Record<string, unknown>;
  /** Move operations name a second file, which must land in the same directory. */
  movesTo?: string;
}

const envelope = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

const TOOL_ROWS: readonly ToolRow[] = [
  { name: 'read_file', tool: 'read_file', target: 'existing', args: (p) => ({ path: p('a.txt') }) },
  {
    name: 'write_file',
    tool: 'write_file',
    target: 'new',
    args: (p) => ({ path: p('new.txt'), content: 'written\n' }),
  },
  {
    name: 'edit_file',
    tool: 'edit_file',
    target: 'existing',
    args: (p) => ({ path: p('a.txt'), old_string: 'shared line', new_string: 'edited line' }),
  },
  {
    name: 'multi_edit',
    tool: 'multi_edit',
    target: 'existing',
    args: (p) => ({ path: p('a.txt'), edits: [{ old_string: 'shared line', new_string: 'edited line' }] }),
  },
  {
    name: 'apply_patch (envelope update)',
    tool: 'apply_patch',
    target: 'existing',
    args: (p) => ({ patch: envelope(`*** Update File: ${p('a.txt')}\n@@\n-shared line\n+patched line`) }),
  },
  {
    name: 'apply_patch (envelope add)',
    tool: 'apply_patch',
    target: 'new',
    args: (p) => ({ patch: envelope(`*** Add File: ${p('new.txt')}\n+added`) }),
  },
  {
    name: 'apply_patch (envelope delete)',
    tool: 'apply_patch',
    target: 'existing',
    args: (p) => ({ patch: envelope(`*** Delete File: ${p('a.txt')}`) }),
  },
  {
    name: 'apply_patch (envelope move)',
    tool: 'apply_patch',
    target: 'existing',
    movesTo: 'moved.txt',
    args: (p) => ({
      patch: envelope(
        `*** Update File: ${p('a.txt')}\n*** Move to: ${p('moved.txt')}\n@@\n-shared line\n+moved line`,
      ),
    }),
  },
  {
    name: 'apply_patch (unified update)',
    tool: 'apply_patch',
    target: 'existing',
    args: (p) => ({
      patch: `--- ${diffPath(p('a.txt'), 'a')}\n+++ ${diffPath(p('a.txt'), 'b')}\n@@ -1 +1 @@\n-shared line\n+patched line\n`,
    }),
  },
  {
    name: 'apply_patch (unified add)',
    tool: 'apply_patch',
    target: 'new',
    args: (p) => ({ patch: `--- /dev/null\n+++ ${diffPath(p('new.txt'), 'b')}\n@@ -0,0 +1 @@\n+added\n` }),
  },
  {
    name: 'apply_patch (unified rename)',
    tool: 'apply_patch',
    target: 'existing',
    movesTo: 'moved.txt',
    args: (p) => ({
      patch: `diff --git ${diffPath(p('a.txt'), 'a')} ${diffPath(p('moved.txt'), 'b')}\nsimilarity index 100%\nrename from ${p('a.txt')}\nrename to ${p('moved.txt')}\n`,
    }),
  },
  { name: 'list_dir', tool: 'list_dir', target: 'directory', args: (p) => ({ path: p('') }) },
  {
    name: 'file_search',
    tool: 'file_search',
    target: 'directory',
    args: (p) => ({ path: p(''), pattern: '**/marker-*' }),
  },
  {
    name: 'grep_search',
    tool: 'grep_search',
    target: 'directory',
    args: (p) => ({ path: p(''), pattern: 'marker', fixed_strings: true }),
  },
];

/** Unified diffs prefix relative paths with a/ and b/; absolute ones are written as they are. */
function diffPath(written: string, side: 'a' | 'b'): string {
  return written.startsWith('/') ? written : `${side}/${written}`;
}

describe('every file tool reads a path argument the way its permission check does', () => {
  let base: string;
  let workspace: string;
  let outside: string;
  let quiver: Quiver;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-path-forms-')));
    workspace = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    (await import('node:fs')).mkdirSync(workspace);
    quiver = await createQuiver({ workspace, discoverConfig: false });
  });

  afterAll(async () => {
    await quiver.close();
    rmSync(base, { recursive: true, force: true });
  });

  /** Runs one call in a session of the default personality whose resolver records each ask and approves it once. */
  async function run(tool: string, args: Record<string, unknown>) {
    const prompts: PermissionPrompt[] = [];
    const session = quiver.createSession({
      permissions: { ask: [tool] },
      permissionResolver: {
        resolve: async (prompt) => {
          prompts.push(prompt);
          return { behavior: 'allow', scope: 'once' };
        },
      },
    });
    try {
      const [result] = await session.execute([{ name: tool, args }]);
      const subjects = prompts.flatMap((prompt) => prompt.decision.subjects ?? []).map((s) => s.subject);
      return { result: result as ToolResult, subjects };
    } finally {
      await session.close();
    }
  }

  const cases = TOOL_ROWS.flatMap((row) => PATH_FORMS.map((form) => ({ row, form })));

  it.each(
    cases.map(({ row, form }) => [row.name, form.name, row, form] as const),
  )('%s given %s opens exactly the path its rule was checked against', async (_tool, _form, row: ToolRow, form: PathForm) => {
    resetFixture(workspace, outside);
    const written = (target: string) => form.write(target, workspace, outside);
    const expected = row.target === 'directory' ? form.directory : form.file;
    const before = snapshot({ ws: workspace, outside });
    const { result, subjects } = await run(row.tool, row.args(written));
    const changed = changedFiles(before, snapshot({ ws: workspace, outside }));

    if (expected === 'refused') {
      expect(result.ok, JSON.stringify(result)).toBe(false);
      expect(changed).toEqual([]);
      // The rule saw where the path leads, outside the workspace, which is what the tool refused.
      if (form.name === 'an absolute path outside')
        expect(subjects.every((subject) => `${subject}/`.startsWith(`${outside}/`))).toBe(true);
      if (form.name.includes('~'))
        expect(!result.ok && result.error).toContain('relative to the workspace root, or an absolute path');
      return;
    }

    expect(result.ok, JSON.stringify(result)).toBe(true);
    const directory = expected === 'sub' ? 'sub' : '.';
    const inDirectory = (name: string) => (directory === '.' ? name : `${directory}/${name}`);
    if (row.target === 'directory') {
      expect(subjects).toEqual([directory]);
      const output = result.ok ? result.value : '';
      const shown = [...output.matchAll(/marker-([\w-]+)\.txt/g)].map((match) => match[1]);
      expect(shown).toContain(markerName(directory));
      const outsideSubtree = FIXTURE_DIRECTORIES.filter(
        (candidate) => directory !== '.' && candidate !== directory && !candidate.startsWith(`${directory}/`),
      );
      for (const other of outsideSubtree) expect(shown).not.toContain(markerName(other));
      expect(changed).toEqual([]);
      return;
    }

    const file = inDirectory(row.target === 'new' ? 'new.txt' : 'a.txt');
    const moved = row.movesTo === undefined ? [] : [inDirectory(row.movesTo)];
    expect(subjects).toEqual([file, ...moved]);
    if (row.tool === 'read_file') {
      expect(result.ok && result.value).toContain(`ID ${file}`);
      expect(changed).toEqual([]);
    } else {
      expect(changed).toEqual([file, ...moved].map((name) => `ws/${name}`).sort());
    }
  });
});
