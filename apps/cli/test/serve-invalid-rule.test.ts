import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs, write } from './helpers.js';
import { connectStdio } from './serve-fixtures.js';

const dirs = tempDirs('quiver-serve-rule-');

const PERSONALITY = 'plugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir]\n';

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('quiver serve when an edit adds a deny that does not parse', () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    dirs.cleanup();
  });

  it('keeps its last good configuration, reports the rule with file and line, and applies the corrected rule', async () => {
    const workspace = dirs.make();
    const personality = path.join(workspace, 'personalities/dev.yaml');
    write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(personality, PERSONALITY);
    write(path.join(workspace, 'src/a/b.key'), 'secret\n');
    const served = await connectStdio(workspace, { env: { XDG_DATA_HOME: dirs.make() } });
    closing.push(() => served.client.close());
    const readKey = () => served.client.callTool({ name: 'read_file', arguments: { path: 'src/a/b.key' } });

    write(personality, `${PERSONALITY}  deny:\n    - "read_file(src/**/*.{key,pem)"\n`);
    await until(() => served.stderr().includes('was not applied'), 'the report of the invalid edit');
    expect(served.stderr()).toContain(`${personality}:5:7: permissions.deny.0:`);
    expect(served.stderr()).toContain('Permission rule "read_file(src/**/*.{key,pem)" does not parse');
    // The running configuration stays: the server still answers, with the rules it had.
    const tools = (await served.client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['read_file', 'list_dir']));
    expect((await readKey()).isError).toBeFalsy();

    write(personality, `${PERSONALITY}  deny:\n    - "read_file(src/**/*.{key,pem})"\n`);
    await until(() => served.stderr().includes('the tools were reassembled'), 'the corrected edit');
    const denied = await readKey();
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(denied.content)).toContain('read_file(src/**/*.{key,pem})');
  });
});
