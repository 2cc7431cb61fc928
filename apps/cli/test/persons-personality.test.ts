import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, REPO, tempDirs, write } from './helpers.js';
import { trustOnTerminal } from './trust-terminal.js';

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

  itWithSystemTools(['script'])(
    'that extends a workspace file is trusted with that file, shown in what the person trusts, and asks again when it widens',
    async () => {
      const workspace = dirs.make();
      const env = { XDG_DATA_HOME: dirs.make() };
      write(path.join(workspace, 'quiver.yaml'), 'workspace: .\n');
      const base = path.join(workspace, 'personalities/base.yaml');
      write(base, PERSONALITY);
      const own = mkdtempSync(path.join(REPO, 'node_modules', '.quiver-test-personality-'));
      outside.push(own);
      const reviewer = path.join(own, 'reviewer.yaml');
      write(reviewer, `extends: ${base}\n`);
      const tools = () => quiver(['tools', '--json', '-p', reviewer], { cwd: workspace, env });

      const before = await tools();
      expect(toolCount(before.stdout)).toBe(0);
      expect(before.stderr).toContain(`personality ${reviewer}: plugins: adds "tools-code"`);
      const shown = await quiver(['trust', '--json', '-p', reviewer], { cwd: workspace, env });
      expect(JSON.parse(shown.stdout).personalitySources[reviewer]).toEqual([reviewer, base]);
      const asked = await trustOnTerminal(workspace, env, { args: ['-p', reviewer] });
      expect(asked).toContain(`readfrom${reviewer}extends${base}`.replace(/[^A-Za-z]/g, ''));
      expect(asked).toContain('trusted');
      const trusted = await tools();
      expect(toolCount(trusted.stdout), trusted.stderr).toBeGreaterThan(0);

      // The workspace file widens: the person's personality keeps what was trusted and says what waits.
      write(base, PERSONALITY.replace('[tools-code]', '[tools-code, tools-terminal]'));
      const widened = await tools();
      const names = (JSON.parse(widened.stdout) as { tools: Array<{ name: string }> }).tools.map(
        (tool) => tool.name,
      );
      expect(names).toContain('read_file');
      expect(names).not.toContain('terminal');
      expect(widened.stderr).toContain(`personality ${reviewer}: plugins: adds "tools-terminal"`);
    },
    90_000,
  );
});
