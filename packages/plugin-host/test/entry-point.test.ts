import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

it('builds a host and a session when a program imports only @quiver/plugin-host', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const program = `
      const { QuiverHost } = await import('@quiver/plugin-host');
      const logger = { debug() {}, info() {}, warn() {}, error() {} };
      const host = await QuiverHost.create({
        workspace: ${JSON.stringify(dir)},
        logger,
        embeddedPersonalities: { default: { id: 'default' } },
      });
      const session = host.createSession();
      console.log(session.pool().definitions.length);
      await host.close();
    `;
    // A plain Node process, without vitest's setup file that loads reflect-metadata.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], {
      cwd: packageDir,
    });
    expect(stdout.trim()).toBe('0');
  } finally {
    cleanup();
  }
});
