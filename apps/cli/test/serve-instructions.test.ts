import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, tempDirs, write } from './helpers.js';
import { connectStdio } from './serve-fixtures.js';

const dirs = tempDirs('quiver-serve-instructions-');
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  dirs.cleanup();
});

/** A workspace bridging server-everything, enabled in `personality` or not. */
function workspace(enabled: boolean): string {
  const dir = dirs.make();
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: agent',
      'mcpServers:',
      '  everything:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(EVERYTHING_SERVER)}, stdio]`,
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/agent.yaml'),
    enabled
      ? 'id: agent\nplugins: [mcp-bridge, tools-code]\nmcpServers: { everything: true }\n'
      : 'id: agent\nplugins: [mcp-bridge, tools-code]\n',
  );
  return dir;
}

describe('quiver serve relays the instructions of its bridged servers', { timeout: 90_000 }, () => {
  it("answers initialize with each enabled server's instructions under its name", async () => {
    const served = await connectStdio(workspace(true));
    closing.push(() => served.client.close());
    const instructions = served.client.getInstructions() ?? '';
    expect(instructions).toContain('## MCP server "everything"');
    // server-everything's own text, as the bridge received it.
    expect(instructions).toMatch(/Everything Server/);
  });

  it('sends no instructions when the personality enables no server that has any', async () => {
    const served = await connectStdio(workspace(false));
    closing.push(() => served.client.close());
    expect(served.client.getInstructions()).toBeUndefined();
  });
});
