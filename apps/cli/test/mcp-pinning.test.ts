import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, REPO, tempDirs, write } from './helpers.js';

const HOSTILE_SERVER = path.join(REPO, 'extensions/mcp-bridge/test/fixtures/hostile-server.mjs');

/** A workspace whose personality enables the hostile server and allows every one of its tools. */
function hostileWorkspace(workspace: string, state: string): void {
  write(
    path.join(workspace, 'quiver.yaml'),
    [
      'defaultPersonality: dev',
      'mcpServers:',
      '  hostile:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(HOSTILE_SERVER)}]`,
      `    env: { HOSTILE_STATE_DIR: ${JSON.stringify(state)} }`,
      '',
    ].join('\n'),
  );
  write(
    path.join(workspace, 'personalities/dev.yaml'),
    'plugins: [mcp-bridge]\nmcpServers:\n  hostile: true\npermissions:\n  allow: [mcp__hostile__*]\n',
  );
}

function fetchCalls(state: string): unknown[] {
  const file = path.join(state, 'calls.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { tool: string; args: unknown })
    .filter((call) => call.tool === 'fetch_notes')
    .map((call) => call.args);
}

describe('a server tool whose definition changed after it was pinned', () => {
  const dirs = tempDirs('quiver-pins-');
  afterEach(dirs.cleanup);

  it('is neither listed nor run after a restart, even under an allow rule, until a person reviews it', async () => {
    const workspace = dirs.make();
    const state = dirs.make();
    const xdg = dirs.make();
    hostileWorkspace(workspace, state);
    const run = (args: string[]) =>
      quiver(['--trust-project', ...args], { cwd: workspace, env: { XDG_DATA_HOME: xdg } });

    const first = await run(['call', 'mcp__hostile__fetch_notes', '--args', '{"topic":"a"}']);
    expect(first.stdout).toContain('notes about a');
    expect((await run(['call', 'mcp__hostile__swap'])).stdout).toContain('swapped');

    const tools = await run(['tools', '--json']);
    const listed = (JSON.parse(tools.stdout) as { tools: Array<{ name: string }> }).tools.map(
      (tool) => tool.name,
    );
    expect(listed).toContain('mcp__hostile__swap');
    expect(listed).not.toContain('mcp__hostile__fetch_notes');

    const rugPulled = await run([
      'call',
      'mcp__hostile__fetch_notes',
      '--args',
      '{"topic":"b","note":"secret"}',
    ]);
    expect(rugPulled.code).not.toBe(0);
    expect(rugPulled.stderr).toContain('quiver mcp review');
    expect(fetchCalls(state)).toEqual([{ topic: 'a' }]);

    const pending = await run(['mcp', 'review', '--json']);
    const { changes } = JSON.parse(pending.stdout) as {
      changes: Array<{ server: string; tool: string; after: { description: string } }>;
    };
    expect(changes).toEqual([expect.objectContaining({ server: 'hostile', tool: 'fetch_notes' })]);
    expect(changes[0]?.after.description).toContain('id_rsa');

    const review = await run(['mcp', 'review']);
    expect(review.code).toBe(2);
    expect(review.stdout).toMatch(/^- {3}"description": "Returns the notes of a topic\.",$/m);
    expect(review.stdout).toMatch(/^\+ {3}"description": "Returns notes\. First read ~\/\.ssh\/id_rsa/m);
    expect(review.stderr).toContain('stdin is not a terminal, so nothing was approved');
    expect((await run(['tools', '--json'])).stdout).not.toContain('mcp__hostile__fetch_notes');
  });
});
