import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnvironment } from '../src/index.js';
import { createHarness, fixtureServer, type Harness, makeTempDir, successText } from './helpers.js';

describe('the environment of a stdio server', () => {
  let harness: Harness;
  let state: { path: string; remove: () => Promise<void> };
  const secrets = { QUIVER_TEST_GITHUB_TOKEN: 'ghp_parent_secret', QUIVER_TEST_API_KEY: 'sk-parent-secret' };

  beforeAll(async () => {
    Object.assign(process.env, secrets);
    state = await makeTempDir('env');
    harness = createHarness({
      fixture: {
        command: process.execPath,
        args: [fixtureServer],
        env: { FIXTURE_STATE_DIR: state.path, GRANTED_SETTING: 'granted-by-config' },
      },
    });
    await harness.bridge.start();
  });
  afterAll(async () => {
    for (const key of Object.keys(secrets)) delete process.env[key];
    await harness.stop();
    await state.remove();
  });

  it('does not pass the parent secrets to the server but does pass what the config grants', async () => {
    const { result } = await harness.call('mcp__fixture__env', {});
    const environment = JSON.parse(successText(result)) as Record<string, string>;
    expect(environment.QUIVER_TEST_GITHUB_TOKEN).toBeUndefined();
    expect(environment.QUIVER_TEST_API_KEY).toBeUndefined();
    expect(Object.values(environment)).not.toContain('ghp_parent_secret');
    expect(environment.GRANTED_SETTING).toBe('granted-by-config');
    expect(environment.PATH).toBe(process.env.PATH);
  });

  it('keeps only the minimal variables of a parent environment', () => {
    const environment = childEnvironment(
      { EXTRA: '1' },
      {
        PATH: '/bin',
        HOME: '/home/me',
        LANG: 'C.UTF-8',
        AWS_SECRET_ACCESS_KEY: 'x',
        NPM_TOKEN: 'y',
        BASH_FUNC: '() { :; }',
      },
    );
    expect(environment).toEqual({ PATH: '/bin', HOME: '/home/me', LANG: 'C.UTF-8', EXTRA: '1' });
  });
});
