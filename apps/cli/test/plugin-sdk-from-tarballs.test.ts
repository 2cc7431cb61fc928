import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeWithSystemTools } from '@quiver/test-utils';
import { afterAll, expect, it } from 'vitest';
import { REPO } from './helpers.js';

interface Run {
  code: number | null;
  output: string;
}

/**
 * The environment of a person's shell: what the test runner (pnpm, vitest) adds is left out, so
 * npm behaves as it would outside this repository.
 */
function outsideEnvironment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|VITEST|TURBO_|NODE_OPTIONS$|INIT_CWD$)/.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    NO_COLOR: '1',
    XDG_DATA_HOME: path.join(home, 'xdg-data'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Runs a step and fails with its whole output when it exits non-zero. */
async function step(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await run(command, args, cwd, env);
  expect(result.code, `${command} ${args.join(' ')} in ${cwd}:\n${result.output}`).toBe(0);
  return result.output;
}

// One long scenario, as a third party lives it: every step needs the one before. Two npm installs
// compile better-sqlite3 from source (so it needs a C toolchain); together the steps take a few
// minutes on two cores.
describeWithSystemTools(['cc', 'make'])(
  'a third-party plugin from the packed SDK, outside the repository',
  () => {
    const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-sdk-e2e-')));
    afterAll(() => rmSync(home, { recursive: true, force: true }));

    it('is scaffolded, tested and packed, then loaded by package name and called through the packed CLI', async () => {
      const env = outsideEnvironment(home);
      const sdk = path.join(home, 'sdk');
      await step(process.execPath, [path.join(REPO, 'scripts/pack-sdk.mjs'), '--out', sdk], REPO, env);
      const tarballs = readdirSync(sdk)
        .filter((file) => file.endsWith('.tgz'))
        .map((file) => path.join(sdk, file));
      expect(tarballs.map((file) => path.basename(file))).toEqual(
        expect.arrayContaining([
          'quiver-types-0.1.0.tgz',
          'quiver-testkit-0.1.0.tgz',
          'quiver-cli-0.1.0.tgz',
        ]),
      );

      // Where the agent runs: the CLI from its tarballs, and its `quiver plugin new`.
      const app = path.join(home, 'app');
      mkdirSync(app);
      writeFileSync(path.join(app, 'package.json'), '{ "name": "app", "private": true }\n');
      await step('npm', ['install', ...tarballs], app, env);
      const quiver = path.join(app, 'node_modules', '.bin', 'quiver');
      const plugin = path.join(home, 'acme-words');
      await step(quiver, ['plugin', 'new', plugin], home, env);

      // The plugin project: the SDK installed from the tarballs, its own tests, its tarball.
      await step('npm', ['install', '--save-dev', ...tarballs], plugin, env);
      const tests = await step('npm', ['test'], plugin, env);
      expect(tests).toMatch(/# pass 4\b/);
      expect(tests).toMatch(/# fail 0\b/);
      await step('npm', ['pack'], plugin, env);
      const pluginTarball = path.join(plugin, 'acme-words-0.1.0.tgz');

      await step('npm', ['install', pluginTarball], app, env);
      writeFileSync(
        path.join(app, 'quiver.yaml'),
        'plugins: [acme-words]\npluginConfig:\n  acme-words:\n    minLength: 2\n',
      );
      mkdirSync(path.join(app, 'personalities'));
      writeFileSync(
        path.join(app, 'personalities', 'default.yaml'),
        'plugins: [acme-words]\npermissions:\n  allow: [acme_words_count_words]\n',
      );

      const status = await run(quiver, ['--trust-project', 'plugins', '--json'], app, env);
      expect(status.code, status.output).toBe(0);
      const plugins = JSON.parse(status.output.slice(status.output.indexOf('{')));
      expect(plugins.failed).toEqual([]);
      expect(plugins.loaded).toContainEqual(
        expect.objectContaining({ id: 'acme-words', version: '0.1.0', tools: ['acme_words_count_words'] }),
      );

      const call = await run(
        quiver,
        ['--trust-project', 'call', 'acme_words_count_words', '--args', '{"text":"to be or not to be, a b"}'],
        app,
        env,
      );
      expect(call.code, call.output).toBe(0);
      expect(call.output).toContain('6 words, 4 distinct\n2 be\n2 to\n1 not\n1 or\n');
    }, 1_200_000);
  },
);
