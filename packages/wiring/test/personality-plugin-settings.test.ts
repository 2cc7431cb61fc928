import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const UNITS_PLUGIN = fileURLToPath(new URL('../../../examples/plugin-units', import.meta.url));

describe('one host serving personalities that configure a plugin differently', () => {
  let workspace: string;
  let quiver: Quiver;
  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-personal-settings-')));
    writeFileSync(
      path.join(workspace, 'quiver.yaml'),
      `plugins:\n  - ${UNITS_PLUGIN}\npluginConfig:\n  units:\n    precision: 4\n`,
    );
    mkdirSync(path.join(workspace, 'personalities'));
    const personality = (settings: string) =>
      `plugins:\n  - id: units${settings}\npermissions:\n  allow: [convert_units]\n`;
    writeFileSync(
      path.join(workspace, 'personalities/default.yaml'),
      personality('\n    config: { precision: 3 }'),
    );
    writeFileSync(path.join(workspace, 'personalities/plain.yaml'), personality(''));
    writeFileSync(
      path.join(workspace, 'personalities/precise.yaml'),
      personality('\n    config: { precision: 10 }'),
    );
    writeFileSync(
      path.join(workspace, 'personalities/rough.yaml'),
      personality('\n    config: { precision: 1 }'),
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  });
  afterAll(async () => {
    await quiver.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function convert(personality?: string) {
    const session = quiver.createSession(personality === undefined ? {} : { personality });
    const [result] = await session.execute([
      { name: 'convert_units', args: { value: 1, from: 'mi', to: 'km' } },
    ]);
    return result;
  }

  it("answers each personality's sessions with that personality's settings", async () => {
    expect(quiver.host.plugins().failed).toEqual([]);
    const [starting, precise, rough, plain] = await Promise.all([
      convert(),
      convert('precise'),
      convert('rough'),
      convert('plain'),
    ]);
    expect(starting).toMatchObject({ ok: true, value: '1 mi = 1.61 km' });
    expect(precise).toMatchObject({ ok: true, value: '1 mi = 1.609344 km' });
    expect(rough).toMatchObject({ ok: true, value: '1 mi = 2 km' });
    // No settings of its own: quiver.yaml's, not those of the personality the host started with.
    expect(plain).toMatchObject({ ok: true, value: '1 mi = 1.609 km' });
  });
});
