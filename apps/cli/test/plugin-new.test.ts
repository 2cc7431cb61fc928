import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

describe('quiver plugin new', () => {
  const dirs = tempDirs();
  afterEach(dirs.cleanup);

  it('writes a plugin project that depends on the published SDK names with ranges', async () => {
    const home = dirs.make();
    const run = await quiver(['plugin', 'new', 'acme-words', '--json'], { cwd: home });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 'acme-words', toolPrefix: 'acme_words' });
    const manifest = JSON.parse(readFileSync(path.join(home, 'acme-words', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'acme-words',
      quiver: { plugin: './dist/index.js' },
      peerDependencies: { '@quiver/types': '^0.1.0' },
      devDependencies: { '@quiver/testkit': '^0.1.0', '@quiver/cli': '^0.1.0', '@quiver/types': '^0.1.0' },
    });
    expect(Object.keys(manifest.scripts)).toEqual(['build', 'test', 'prepack']);
    const source = readFileSync(path.join(home, 'acme-words', 'src', 'index.ts'), 'utf8');
    expect(source).toContain("id: 'acme-words'");
    expect(source).toContain("name: 'acme_words_count_words'");
    expect(source).toContain('ctx.registerReducer(');
    expect(source).toContain('config: settingsSchema');
  });

  it('says how to install the SDK from tarballs while npm cannot fetch it', async () => {
    const home = dirs.make();
    // A registry that answers nothing, as before the SDK is published (or offline).
    const run = await quiver(['plugin', 'new', 'acme-words'], {
      cwd: home,
      env: { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('is not on the npm registry');
    expect(run.stdout).toContain('pnpm build && pnpm pack:sdk');
    expect(run.stdout).toContain('cd acme-words && npm install -D <that folder>/*.tgz && npm test');
  });

  it('refuses a directory that already holds files, and writes nothing', async () => {
    const home = dirs.make();
    write(path.join(home, 'taken', 'notes.txt'), 'mine\n');
    const run = await quiver(['plugin', 'new', 'taken'], { cwd: home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('taken exists and is not empty; nothing was written.');
    expect(run.stderr).toContain('fix: Name a new directory');
  });

  it('refuses a plugin id a personality could not name, and says what is allowed', async () => {
    const run = await quiver(['plugin', 'new', 'ok-dir', '--id', 'Bad Id'], { cwd: dirs.make() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"Bad Id" is not a valid plugin id.');
    expect(run.stderr).toContain('lowercase letters, digits');
  });
});
