import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependency, quiver, tempDirs, write } from './helpers.js';

// `quiver call` and `quiver tools` run from dist/cold/quiver.cjs with the code V8 compiled in an
// earlier run, kept in $XDG_CACHE_HOME/quiver/code-cache (src/launch/code-cache.ts).
const dirs = tempDirs('quiver-code-cache-');
afterEach(() => dirs.cleanup());

/** A home directory with its cache directory, and a workspace beside it (not holding it). */
function setup(): { workspace: string; cache: string; env: NodeJS.ProcessEnv } {
  const root = dirs.make();
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  const cache = path.join(home, '.cache');
  mkdirSync(home);
  write(path.join(workspace, 'notes.txt'), 'one line to read\n');
  return { workspace, cache, env: { HOME: home, XDG_CACHE_HOME: cache, QUIVER_CODE_CACHE_REPORT: '1' } };
}

const callArgs = ['call', 'read_file', '-a', '{"path":"notes.txt"}'];

function cacheFiles(cache: string): string[] {
  return readdirSync(path.join(cache, 'quiver', 'code-cache')).map((name) =>
    path.join(cache, 'quiver', 'code-cache', name),
  );
}

function reported(stderr: string): string | undefined {
  return /quiver: code cache (.*)/.exec(stderr)?.[1];
}

describe('the code cache of quiver call and quiver tools', () => {
  it('runs a second quiver call from the cache the first one wrote, with the same answer', async () => {
    const { workspace, cache, env } = setup();
    const plain = await quiver(callArgs, { cwd: workspace, env: { ...env, QUIVER_CODE_CACHE: 'off' } });
    expect(plain.code).toBe(0);
    expect(reported(plain.stderr)).toBeUndefined();
    expect(plain.stdout).toContain('one line to read');

    const first = await quiver(callArgs, { cwd: workspace, env });
    expect(reported(first.stderr)).toBe('miss, written');
    const [file] = cacheFiles(cache);
    expect(path.basename(file as string)).toMatch(/^call-/);
    const second = await quiver(callArgs, { cwd: workspace, env });
    expect(reported(second.stderr)).toBe('hit');
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.stdout).toBe(plain.stdout);
    expect(second.stdout).toBe(plain.stdout);
  });

  it('keeps one cache per command, so quiver tools does not replace the cache of quiver call', async () => {
    const { workspace, cache, env } = setup();
    await quiver(callArgs, { cwd: workspace, env });
    const tools = await quiver(['tools'], { cwd: workspace, env });
    expect(tools.code).toBe(0);
    expect(reported(tools.stderr)).toBe('miss, written');
    expect(tools.stdout).toContain('read_file');
    expect(
      cacheFiles(cache)
        .map((file) => path.basename(file).split('-')[0])
        .sort(),
    ).toEqual(['call', 'tools']);
    expect(reported((await quiver(callArgs, { cwd: workspace, env })).stderr)).toBe('hit');
  });

  it('rebuilds a damaged cache file and answers the same', async () => {
    const { workspace, cache, env } = setup();
    const first = await quiver(callArgs, { cwd: workspace, env });
    const [file] = cacheFiles(cache) as [string];
    const damaged = readFileSync(file);
    // Past V8's own header, which V8 checks itself: only the checksum in front of the data sees this.
    for (let offset = 2_000; offset < damaged.length; offset += 997)
      damaged[offset] = (damaged[offset] as number) ^ 0xff;
    writeFileSync(file, damaged);
    const again = await quiver(callArgs, { cwd: workspace, env });
    expect(reported(again.stderr)).toBe('miss, written');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(readFileSync(file).equals(damaged)).toBe(false);
    expect(reported((await quiver(callArgs, { cwd: workspace, env })).stderr)).toBe('hit');
  });

  it('rebuilds a cache file V8 made for another script and answers the same', async () => {
    const { workspace, cache, env } = setup();
    const first = await quiver(callArgs, { cwd: workspace, env });
    const [file] = cacheFiles(cache) as [string];
    const script = new vm.Script('(function () { return 42; })()');
    script.runInThisContext();
    const foreign = script.createCachedData();
    writeFileSync(file, Buffer.concat([createHash('sha256').update(foreign).digest(), foreign]));
    const again = await quiver(callArgs, { cwd: workspace, env });
    expect(reported(again.stderr)).toBe('rejected, written');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(reported((await quiver(callArgs, { cwd: workspace, env })).stderr)).toBe('hit');
  });

  it('answers when the cache directory cannot be written', async () => {
    const { workspace, cache, env } = setup();
    // A regular file where the directory would be: no process, root included, can create it.
    const blocked = path.join(path.dirname(cache), 'not-a-directory');
    writeFileSync(blocked, '');
    const run = () => quiver(callArgs, { cwd: workspace, env: { ...env, XDG_CACHE_HOME: blocked } });
    const first = await run();
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('one line to read');
    expect(reported(first.stderr)).toBe('miss, not written');
    expect(reported((await run()).stderr)).toBe('miss, not written');
  });

  it('never reads or writes a cache directory where a tool of the workspace could write', async () => {
    const { workspace, env } = setup();
    const inWorkspace = path.join(workspace, '.cache');
    for (const args of [callArgs, callArgs, ['tools']]) {
      const run = await quiver(args, { cwd: workspace, env: { ...env, XDG_CACHE_HOME: inWorkspace } });
      expect(run.code).toBe(0);
      expect(reported(run.stderr)).toMatch(/^not used \(the cache directory .* may be in the workspace\)$/);
    }
    expect(existsSync(inWorkspace)).toBe(false);
    // A workspace root above the current directory (it holds .git) counts as much as the directory.
    const nested = path.join(workspace, 'sub');
    mkdirSync(path.join(workspace, '.git'), { recursive: true });
    mkdirSync(nested);
    const below = await quiver(['tools'], {
      cwd: nested,
      env: { ...env, XDG_CACHE_HOME: path.join(workspace, 'cache') },
    });
    expect(reported(below.stderr)).toMatch(/may be in the workspace/);
    const named = await quiver(['tools', '-w', workspace], { cwd: workspace, env });
    expect(reported(named.stderr)).toBe('not used (the command line names a workspace or configuration)');
  });
});

describe('commands that load more than the built-in file tools, run from the cache', () => {
  it('runs a shell command and a third-party plugin tool on a cache hit as without the cache', async () => {
    const { workspace, env } = setup();
    const dir = path.join(workspace, 'acme');
    linkDependency(dir, 'zod');
    write(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'acme', type: 'module', quiver: { plugin: './plugin.js' } }),
    );
    write(
      path.join(dir, 'plugin.js'),
      `import { z } from 'zod';
export default { id: 'acme', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'acme_echo', description: 'Echoes.', input: z.object({ text: z.string() }),
    capabilities: {}, execute: (args) => ({ ok: true, value: 'acme says ' + args.text }) });
} };
`,
    );
    write(path.join(workspace, 'quiver.yaml'), 'plugins:\n  - ./acme\n');
    write(
      path.join(workspace, 'personalities/default.yaml'),
      'plugins: [acme, tools-code, tools-terminal]\npermissions:\n  allow: [acme_echo, read_file, "terminal(cat notes.txt)"]\n',
    );
    const commands = [
      ['--trust-project', 'call', 'acme_echo', '-a', '{"text":"hello"}'],
      ['--trust-project', 'call', 'terminal', '-a', '{"command":"cat notes.txt"}'],
    ];
    const plain = [];
    for (const args of commands)
      plain.push(await quiver(args, { cwd: workspace, env: { ...env, QUIVER_CODE_CACHE: 'off' } }));
    expect(plain[0]?.stdout).toContain('acme says hello');
    expect(plain[1]?.stdout).toContain('one line to read');
    for (const round of ['miss, written', 'hit']) {
      for (const [index, args] of commands.entries()) {
        const run = await quiver(args, { cwd: workspace, env });
        expect(reported(run.stderr)).toBe(index === 0 ? round : 'hit');
        expect(run.code).toBe(plain[index]?.code);
        expect(run.stdout).toBe(plain[index]?.stdout);
      }
    }
  });
});
