import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO, tempDirs } from './helpers.js';

const dirs = tempDirs('quiver-pnpm-quiver-');

describe('pnpm quiver from a project directory', () => {
  it('acts on the directory pnpm was started from, as the README says (`pnpm -C /path/to/quiver quiver …`)', async () => {
    const project = dirs.make();
    try {
      // Only the variables a person's shell has: none of the test runner's own pnpm settings.
      const env = Object.fromEntries(
        Object.entries(process.env).filter(
          ([key]) => !/^(npm_|pnpm_|PNPM_|VITEST|TURBO_|NODE_OPTIONS$|INIT_CWD$)/.test(key),
        ),
      );
      const { stdout } = await promisify(execFile)(
        'npx',
        ['-y', 'pnpm@10.34.9', '-C', REPO, 'quiver', 'init', '--json'],
        { cwd: project, env, timeout: 60_000 },
      );
      const written = (JSON.parse(stdout.slice(stdout.indexOf('{'))) as { written: string[] }).written;
      expect(written).toEqual([
        path.join(project, 'quiver.yaml'),
        path.join(project, 'personalities/default.yaml'),
      ]);
      expect(existsSync(path.join(REPO, 'quiver.yaml'))).toBe(false);
    } finally {
      dirs.cleanup();
    }
  }, 90_000);
});
