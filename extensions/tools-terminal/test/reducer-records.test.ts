import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import type { ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TerminalRunData, terminalReducer, terminalTool } from '../src/index.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';

/**
 * Outputs made of many records, run for real through the terminal tool and too long for its
 * window: the reduced result keeps every record's key line (each commit's hash, each top-level
 * directory) and counts that are exact, because the reducer reads the spilled output.
 */

const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

async function runReduced(
  command: string,
  spillLimitBytes?: number,
): Promise<{ raw: string; reduced: string }> {
  const { ctx } = await createContext(workspace, spillLimitBytes === undefined ? {} : { spillLimitBytes });
  const result = await Promise.resolve(terminalTool.execute({ command }, ctx));
  expect((result.structured as TerminalRunData).truncated).toBe(true);
  const reduced = terminalReducer.reduce(result, { toolName: 'terminal', args: { command } });
  return { raw: textOf(result), reduced: textOf(reduced) };
}

describe('records kept by the reducers', () => {
  it('keeps every row key of a long table and, within the budget, whole rows (ps: what each process runs)', async () => {
    // 300 processes of this test's own, listed by ps with their command lines, then stopped.
    const command =
      'for i in $(seq 100 399); do sleep 6$i & done; sleep 1; ps -o pid,ppid,stat,rss,etime,args --ppid $$; kill $(jobs -p) 2>/dev/null; true';
    const { ctx } = await createContext(workspace);
    const result = await Promise.resolve(terminalTool.execute({ command }, ctx));
    const raw = textOf(result);
    const reduced = textOf(terminalReducer.reduce(result, { toolName: 'terminal', args: { command } }));
    // Every process ps listed (under load a few may still be the shell that forked them, not yet `sleep`).
    const rows = [...raw.matchAll(/^\s*(\d+)\s+\d+\s+\S+\s+\d+\s+\S+\s+(.*)$/gm)];
    const pids = rows.map((match) => match[1] as string);
    expect(pids.length).toBeGreaterThanOrEqual(300);
    expect(reduced).toMatch(/30\d rows; PID of each/);
    // Each PID listed, or inside a range of consecutive ones (`4395–4694`).
    const keyLine =
      reduced.split('\n')[reduced.split('\n').findIndex((line) => /rows; PID of each/.test(line)) + 1] ?? '';
    const covered = new Set<number>();
    for (const key of keyLine.split(' ')) {
      const [from, to] = key.split('–').map(Number);
      for (let pid = from as number; pid <= (to ?? (from as number)); pid++) covered.add(pid);
    }
    for (const pid of pids) expect(covered.has(Number(pid))).toBe(true);
    // Rows in full from the start and the end: the command each process runs.
    expect(reduced).toMatch(/rows in full \(the first \d+ and the last \d+\)/);
    expect(reduced).toMatch(/^\s*\d+ .*\ssleep 6100$/m);
    expect(reduced).toContain((rows.at(-1) as RegExpMatchArray)[0].trim());
    expect(reduced.length).toBeLessThan(raw.length / 2);
  });

  it('lists every top-level directory of a long find, with its exact count', async () => {
    const sizes = Array.from({ length: 24 }, (_, index) => 20 + index * 7);
    for (const [index, size] of sizes.entries()) {
      const directory = path.join(workspace.root, `area-${String(index).padStart(2, '0')}`);
      await mkdir(directory);
      for (let file = 0; file < size; file++)
        await writeFile(path.join(directory, `a-rather-long-file-name-to-fill-the-window-${file}.txt`), '');
    }
    const { raw, reduced } = await runReduced('find . -type f');
    expect(raw).toContain('bytes cut from the middle');
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(reduced).toContain(`${total.toLocaleString('en-US')} paths under .: 24 top-level directories`);
    for (const [index, size] of sizes.entries())
      expect(reduced).toContain(`./area-${String(index).padStart(2, '0')} (${size})`);
    expect(reduced).not.toContain('[partial:');
  });

  itWithSystemTools(['git'])('keeps every commit of a git log -p too long for the result', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: workspace.root,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_AUTHOR_NAME: 'Ada',
          GIT_AUTHOR_EMAIL: 'ada@example.com',
          GIT_COMMITTER_NAME: 'Ada',
          GIT_COMMITTER_EMAIL: 'ada@example.com',
        },
      });
    git('init', '-q', '-b', 'main');
    for (let commit = 1; commit <= 12; commit++) {
      const lines = Array.from(
        { length: 400 },
        (_, line) => `export const value${commit}_${line} = ${line};`,
      );
      await writeFile(path.join(workspace.root, `module-${commit}.ts`), `${lines.join('\n')}\n`);
      git('add', '.');
      git('commit', '-qm', `Add module ${commit}`);
    }
    const hashes = git('log', '--format=%H').trim().split('\n');
    const { raw, reduced } = await runReduced('git log -p');
    expect(raw).toContain('bytes cut from the middle');
    expect(reduced).toMatch(/^12 commits:$/m);
    for (const [index, hash] of hashes.entries())
      expect(reduced).toContain(`${hash} Add module ${12 - index} (Ada) — 1 file changed, +400 −0`);
  });

  it('lists every directory of a long ls -laR with its exact entry count', async () => {
    const sizes = Array.from({ length: 30 }, (_, index) => 15 + index * 3);
    for (const [index, size] of sizes.entries()) {
      const directory = path.join(workspace.root, `shelf-${String(index).padStart(2, '0')}`);
      await mkdir(directory);
      for (let file = 0; file < size; file++)
        await writeFile(path.join(directory, `an-entry-with-a-long-name-to-fill-the-window-${file}.txt`), '');
    }
    const { raw, reduced } = await runReduced('ls -laR');
    expect(raw).toContain('bytes cut from the middle');
    const total = sizes.reduce((sum, size) => sum + size, 0) + sizes.length;
    expect(reduced).toContain(`${sizes.length + 1} sections, ${total.toLocaleString('en-US')} records:`);
    for (const [index, size] of sizes.entries())
      expect(reduced).toContain(`./shelf-${String(index).padStart(2, '0')}: ${size} records`);
    expect(reduced).not.toContain('[partial:');
  });

  it('says the count is partial when the spill file reached its limit before the output ended', async () => {
    for (let index = 0; index < 3000; index++)
      await writeFile(path.join(workspace.root, `file-with-a-long-name-number-${index}.txt`), '');
    const { reduced } = await runReduced('find . -type f', 48 * 1024);
    expect(reduced).toMatch(/^\[partial: [\d,]+ bytes from the middle of the output were not read; /m);
    expect(reduced).toMatch(/^at least [\d,]+ paths under \./m);
  });
});
