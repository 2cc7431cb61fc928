import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuiverError } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

let workspace: string;
let quiver: Quiver;

beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-session-rules-')));
  writeFileSync(path.join(workspace, 'b.key'), 'secret\n');
  quiver = await createQuiver({ workspace, discoverConfig: false });
});

afterAll(async () => {
  await quiver.close();
  rmSync(workspace, { recursive: true, force: true });
});

function failure(action: () => unknown): QuiverError {
  try {
    action();
  } catch (error) {
    return error as QuiverError;
  }
  throw new Error('expected a QuiverError');
}

describe('session permission rules given by an embedder', () => {
  it('refuses a session whose deny does not parse, before any call can run', () => {
    const error = failure(() =>
      quiver.createSession({ permissions: { allow: ['read_file'], deny: ['read_file(**/*.{key,pem)'] } }),
    );
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('Permission rule "read_file(**/*.{key,pem)" does not parse');
  });

  it('refuses new options whose ask does not parse, and keeps deciding by the rules it had', async () => {
    const session = quiver.createSession({
      permissions: { allow: ['read_file'], deny: ['read_file(**/*.key)'] },
    });
    const error = failure(() => session.updateOptions({ permissions: { ask: ['terminal(git "push:*)'] } }));
    expect(error.code).toBe('config_invalid');
    const [read] = await session.execute([{ name: 'read_file', args: { path: 'b.key' } }]);
    expect(read).toMatchObject({ ok: false, code: 'not_permitted' });
  });
});

describe('options an embedder gets wrong', () => {
  it('refuses a permissionResolver given as a bare function, as the README once suggested', () => {
    const myUi = async () => ({ behavior: 'deny' as const });
    const error = failure(() => quiver.createSession({ permissionResolver: myUi as never }));
    expect(error.code).toBe('usage');
    expect(error.message).toContain('it is a function');
    expect(error.fix).toContain('{ resolve:');
  });

  it('refuses an unknown createQuiver option with a did-you-mean', async () => {
    const error = await createQuiver({ workspace, configPth: 'quiver.yaml' } as never).then(
      () => undefined,
      (caught: QuiverError) => caught,
    );
    expect(error?.code).toBe('usage');
    expect(error?.message).toContain('unknown option "configPth"');
    expect(error?.fix).toContain('Did you mean "configPath"');
  });

  it('refuses a sessionLogWriter it does not know, naming the two it takes', async () => {
    const error = await createQuiver({ workspace, sessionLogWriter: 'inline' } as never).then(
      () => undefined,
      (caught: QuiverError) => caught,
    );
    expect(error?.code).toBe('usage');
    expect(error?.message).toContain('sessionLogWriter must be "thread" or "calling-thread", not "inline"');
  });
});
