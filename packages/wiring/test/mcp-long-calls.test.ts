import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';
import { type McpWorkspace, mcpWorkspace } from './mcp-helpers.js';

describe('long calls to bridged MCP tools', () => {
  let workspace: McpWorkspace;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = mcpWorkspace(
      {
        patient: { callTimeoutMs: 3_000 },
        strict: { callTimeoutMs: 3_000, toolTimeouts: { slow: 500 } },
      },
      {
        long: 'plugins: [mcp-bridge]\nmcpServers:\n  patient: {}\n  strict: {}\npermissions:\n  allow: [mcp__patient, mcp__strict]\n',
      },
      'long',
    );
    quiver = await createQuiver({ workspace: workspace.workspace, trustProject: true });
  });
  afterAll(async () => {
    await quiver?.close();
    workspace?.remove();
  });

  it('completes a 6 s operation that reports progress every second under a 3 s call timeout', async () => {
    const session = quiver.createSession();
    const progress: number[] = [];
    session.events.subscribe((event) => {
      if (event.type === 'tool.execution_progress') progress.push(event.progress);
    });
    const [result] = await session.execute([
      { name: 'mcp__patient__slow', args: { seconds: 6, progressEveryMs: 1_000 } },
    ]);
    expect(result).toMatchObject({ ok: true, value: 'worked 6 s' });
    expect(progress.length).toBeGreaterThanOrEqual(5);
  }, 20_000);

  it('leaves a bridged tool’s own timeout_ms argument to the server instead of using it as Quiver’s timeout', async () => {
    const session = quiver.createSession();
    const [result] = await session.execute([
      { name: 'mcp__patient__slow', args: { seconds: 1, timeout_ms: 100 } },
    ]);
    expect(result).toMatchObject({ ok: true, value: 'worked 1 s (timeout_ms 100)' });
  });

  it('times a tool out after its configured toolTimeouts entry instead of the server’s call timeout', async () => {
    const session = quiver.createSession();
    const [slow, echo] = await session.execute([
      { name: 'mcp__strict__slow', args: { seconds: 2 } },
      { name: 'mcp__strict__echo', args: { text: 'other tools keep the server default' } },
    ]);
    expect(slow).toMatchObject({ ok: false, code: 'timeout' });
    if (slow && !slow.ok) expect(slow.error).toContain('did not answer within 500 ms');
    expect(echo).toMatchObject({ ok: true, value: 'other tools keep the server default' });
  });
});
