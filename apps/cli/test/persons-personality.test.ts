import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, REPO, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-persons-personality-');
const outside: string[] = [];
afterEach(() => {
  dirs.cleanup();
  for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const PERSONALITY = 'plugins: [tools-code]\npermissions:\n  allow: [read_file]\n';
const toolCount = (stdout: string) => (JSON.parse(stdout) as { count: number }).count;

describe('a personality named by path', () => {
  it("is the person's own when no tool can write it, and untrusted when a tool could have", async () => {
    const workspace = dirs.make();
    write(path.join(workspace, 'quiver.yaml'), 'workspace: .\n');
    // Outside the workspace and the temporary directory: where a person keeps their own files.
    const own = mkdtempSync(path.join(REPO, 'node_modules', '.quiver-test-personality-'));
    outside.push(own);
    write(path.join(own, 'reviewer.yaml'), PERSONALITY);
    const mine = await quiver(['tools', '--json', '-p', path.join(own, 'reviewer.yaml')], { cwd: workspace });
    expect(mine.code, mine.stderr).toBe(0);
    expect(toolCount(mine.stdout)).toBeGreaterThan(0);
    expect(mine.stderr).not.toContain('reviewer');

    // The same file in the workspace or in /tmp could have been written by a tool.
    write(path.join(workspace, 'agents/reviewer.yaml'), PERSONALITY);
    const planted = await quiver(['tools', '--json', '-p', 'agents/reviewer.yaml'], { cwd: workspace });
    expect(toolCount(planted.stdout)).toBe(0);
    const temporary = dirs.make();
    write(path.join(temporary, 'reviewer.yaml'), PERSONALITY);
    const inTmp = await quiver(['tools', '--json', '-p', path.join(temporary, 'reviewer.yaml')], {
      cwd: workspace,
    });
    expect(toolCount(inTmp.stdout)).toBe(0);
  });
});
