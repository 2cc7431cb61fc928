import { describe, expect, it } from 'vitest';
import { createQuiver } from '../src/index.js';
import { mcpWorkspace } from './mcp-helpers.js';
import { useTracedSuite } from './span-helpers.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("a session's pipeline warm-up under tracing", () => {
  const { exporter, provider, open, made } = useTracedSuite();

  it('exports no span for the warm-up, and one for the first call after it', async () => {
    const workspace = mcpWorkspace(
      { alpha: {} },
      { dev: 'plugins: [mcp-bridge]\nmcpServers:\n  alpha: {}\npermissions:\n  allow: [mcp__alpha]\n' },
      'dev',
    );
    made.push(workspace);
    const quiver = await createQuiver({ workspace: workspace.workspace, trustProject: true, logger: silent });
    open.push(quiver);
    const session = quiver.createSession();
    await session.warmCalls();
    await session.ready();
    session.pool();
    await session.warmCalls();
    await provider().forceFlush();
    expect(
      exporter()
        .getFinishedSpans()
        .map((span) => span.name),
    ).toEqual([]);

    const [result] = await session.execute([{ id: 'first', name: 'mcp__alpha__echo', args: { text: 'hi' } }]);
    expect(result?.ok).toBe(true);
    await provider().forceFlush();
    expect(
      exporter()
        .getFinishedSpans()
        .map((span) => span.name),
    ).toContain('execute_tool mcp__alpha__echo');
  }, 60_000);
});
