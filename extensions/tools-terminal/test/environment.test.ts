import { describe, expect, it } from 'vitest';
import { createProcessBackend, isSecretName } from '../src/index.js';

describe('secret names', () => {
  it('recognizes the usual ways of naming credentials', () => {
    for (const name of [
      'GITHUB_TOKEN',
      'FAKE_API_TOKEN',
      'OPENAI_API_KEY',
      'STRIPE_SECRET',
      'DB_PASSWORD',
      'MYSQL_PWD_PASSWD',
      'npm_config_password',
      'AWS_ACCESS_KEY_ID',
      'AZURE_CLIENT_ID',
      'GCP_PROJECT',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'DOCKER_CREDENTIALS_FILE',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
  });

  it('lets ordinary variables through', () => {
    for (const name of [
      'PATH',
      'HOME',
      'LANG',
      'LC_ALL',
      'TERM',
      'TOKENIZERS_PARALLELISM',
      'KEYBOARD_LAYOUT',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });
});

describe('createProcessBackend', () => {
  it('builds a minimal environment without secrets and a capped spill directory in the data dir', async () => {
    const backend = createProcessBackend({
      roots: ['/work/project'],
      dataDir: '/work/project/.quiver',
      sandbox: 'auto',
      sourceEnv: {
        PATH: '/usr/bin',
        HOME: '/home/ada',
        LC_ALL: 'C.UTF-8',
        EDITOR: 'vim',
        FAKE_API_TOKEN: 'x',
        AWS_SECRET_ACCESS_KEY: 'y',
      },
    });
    const handle = await backend.resolve({
      capability: 'process',
      declaration: true,
      toolName: 'terminal',
      sessionId: 's',
      personalityId: 'p',
      agentId: 'a',
    });
    expect(backend.capability).toBe('process');
    expect(handle).toEqual({
      roots: ['/work/project'],
      spillDir: '/work/project/.quiver/terminal',
      baseEnv: { PATH: '/usr/bin', HOME: '/home/ada', LC_ALL: 'C.UTF-8' },
      sandbox: 'auto',
      spillLimitBytes: 64 * 1024 * 1024,
    });
  });
});
