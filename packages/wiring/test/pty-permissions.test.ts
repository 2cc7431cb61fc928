import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeWithSystemTools } from '@quiver/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

describeWithSystemTools(['script'])('a pty shell under the shell rules', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-pty-rules-')));
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('decides the command of a pty shell and what is typed into it like any shell command', async () => {
    const session = quiver.createSession({
      permissions: { allow: ['terminal_start(cat)', 'terminal_read'] },
    });
    const [refused, started] = await session.execute([
      { name: 'terminal_start', args: { command: 'rm -rf build', pty: true } },
      { name: 'terminal_start', args: { command: 'cat', pty: true } },
    ]);
    expect(refused).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(started).toMatchObject({ ok: true, structured: { pty: true } });
    const id = (started?.ok && (started.structured as { id: string }).id) as string;
    const [typed] = await session.execute([{ name: 'terminal_write', args: { id, text: 'rm -rf build\n' } }]);
    expect(typed).toMatchObject({ ok: false, code: 'not_permitted' });
  });
});
