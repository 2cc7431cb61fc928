import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

it('builds a host and a session when a program imports only @quiver/plugin-host, loading no database driver', async () => {
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
      const unusable = host.eventLog.unusable;
      // A native addon shows among the process's shared objects once loaded.
      const drivers = process.report.getReport().sharedObjects.filter((file) => file.includes('better_sqlite3'));
      console.log(JSON.stringify({ tools: session.pool().definitions.length, log: unusable?.code, message: unusable?.message, drivers }));
      await host.close();
    `;
    // A plain Node process, without vitest's setup file that loads reflect-metadata.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], {
      cwd: packageDir,
    });
    const printed = JSON.parse(stdout.trim()) as {
      tools: number;
      log?: string;
      message?: string;
      drivers: string[];
    };
    expect(printed.tools).toBe(0);
    // Without a SQLite backend given, the session log says why it cannot record instead of loading one.
    expect(printed.log).toBe('storage_unavailable');
    expect(printed.message).toContain('no SQLite backend was given');
    expect(printed.drivers).toEqual([]);
  } finally {
    cleanup();
  }
});
