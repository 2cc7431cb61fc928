import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const REVIEWERS = `id: reviewers
plugins: [tools-code, tools-terminal]
toolset: [code, terminal]
permissions:
  allow: [read_file, grep_search, file_search, list_dir, write_file]
agents:
  reviewer:
    tools: [Read, Grep, Glob, Bash]
`;

describe('agent gating from the command line', () => {
  const dirs = tempDirs('quiver-cli-agents-');
  afterEach(dirs.cleanup);

  it('shows a background agent the shipped search tools', async () => {
    const ws = dirs.make();
    const run = await quiver(['tools', '--agent', 'async', '--json'], { cwd: ws });
    expect(run.code).toBe(0);
    const names = (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['grep_search', 'file_search', 'list_dir', 'read_file']));
  });

  it('accepts a personality whose custom agent is written with Claude Code names and whose toolset names a group', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'personalities/reviewers.yaml'), REVIEWERS);
    const run = await quiver(['personality', 'check', 'personalities/reviewers.yaml', '--json'], { cwd: ws });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, id: 'reviewers', issues: [] });
  });

  it('fails the check of a misspelled tool name with exit 1 and the name it probably meant', async () => {
    const ws = dirs.make();
    write(
      path.join(ws, 'personalities/typo.yaml'),
      'id: typo\nplugins: [tools-code]\nagents:\n  reviewer:\n    tools: [Raed, Grep]\npermissions:\n  deny: [grep_serch]\n',
    );
    const run = await quiver(['personality', 'check', 'personalities/typo.yaml'], { cwd: ws });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('agents.reviewer.tools: "Raed" matches no tool');
    expect(run.stdout).toContain('Did you mean "Read"?');
    expect(run.stdout).toContain('permissions.deny: "grep_serch"');
    expect(run.stdout).toContain('Did you mean "grep_search"?');
  });

  it('only warns about a Claude Code name that no tool here provides', async () => {
    const ws = dirs.make();
    write(
      path.join(ws, 'personalities/web.yaml'),
      'id: web\nplugins: [tools-code]\nagents:\n  researcher:\n    tools: [WebFetch, Read]\n',
    );
    const run = await quiver(['personality', 'check', 'personalities/web.yaml'], { cwd: ws });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('warning agents.researcher.tools: "WebFetch" is a Claude Code tool');
  });

  it('checks MCP names against the servers quiver.yaml defines, without starting them', async () => {
    const ws = dirs.make();
    write(
      path.join(ws, 'quiver.yaml'),
      'mcpServers:\n  github:\n    command: /nonexistent/github-mcp-server\n',
    );
    write(
      path.join(ws, 'personalities/mcp.yaml'),
      'id: mcp\nagents:\n  triage:\n    tools: [mcp__github__*, mcp__gitlab__*]\n',
    );
    const run = await quiver(['personality', 'check', 'personalities/mcp.yaml', '--json'], { cwd: ws });
    expect(run.code).toBe(1);
    const { issues } = JSON.parse(run.stdout) as { issues: { name: string; message: string }[] };
    expect(issues.map((issue) => issue.name)).toEqual(['mcp__gitlab__*']);
    expect(issues[0]?.message).toContain('Did you mean "mcp__github__*"?');
  });

  it('runs a call as a background agent, which may search but not manage boards', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'src/app.ts'), 'export const answer = 42;\n');
    const search = await quiver(
      ['call', 'grep_search', '--agent', 'async', '--args', '{"pattern":"answer"}'],
      { cwd: ws },
    );
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('src/app.ts');
    const board = await quiver(['call', 'kanban_list', '--agent', 'async', '--json'], { cwd: ws });
    expect(board.code).toBe(1);
    expect(JSON.parse(board.stdout)).toMatchObject({ ok: false, code: 'not_available' });
    expect(board.stdout).toContain('async');
  });

  it('runs a call as a custom agent, which gets the tools its Claude Code names mean and no others', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'quiver.yaml'), 'defaultPersonality: reviewers\n');
    write(path.join(ws, 'personalities/reviewers.yaml'), REVIEWERS);
    write(path.join(ws, 'notes.txt'), 'reviewed\n');
    const base = ['--trust-project', 'call'];
    const read = await quiver(
      [...base, 'Read', '--custom-agent', 'reviewer', '--args', '{"path":"notes.txt"}'],
      {
        cwd: ws,
      },
    );
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('reviewed');
    const writeCall = await quiver(
      [
        ...base,
        'write_file',
        '--custom-agent',
        'reviewer',
        '--json',
        '--args',
        '{"path":"x.txt","content":"x"}',
      ],
      { cwd: ws },
    );
    expect(writeCall.code).toBe(1);
    expect(JSON.parse(writeCall.stdout)).toMatchObject({ ok: false, code: 'not_available' });
    expect(writeCall.stdout).toContain('agents.reviewer.tools');
  });

  it('rejects an unknown agent kind with the closest one', async () => {
    const ws = dirs.make();
    const run = await quiver(['call', 'read_file', '--agent', 'asink'], { cwd: ws });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Did you mean "async"?');
  });
});
