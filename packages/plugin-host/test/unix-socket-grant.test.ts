import { describe, expect, it } from 'vitest';
import {
  compareConfigurations,
  PERSONALITY_DEFAULTS,
  type PersonalitySettings,
  type ProjectConfiguration,
  parseConfig,
  personalitySchema,
} from '../src/index.js';

function configuration(unixSockets: string[]): ProjectConfiguration {
  const dev: PersonalitySettings = {
    ...structuredClone(PERSONALITY_DEFAULTS),
    id: 'dev',
    plugins: ['tools-terminal'],
    unixSockets,
  };
  return { config: parseConfig({}, 'test'), personalities: { dev } };
}

describe('unix sockets a personality lets sandboxed commands reach', () => {
  it('holds back a newly granted socket until a person trusts it, and applies a removed one at once', () => {
    const trusted = configuration(['/run/postgresql/.s.PGSQL.5432']);
    const widened = compareConfigurations(
      trusted,
      configuration(['/run/postgresql/.s.PGSQL.5432', '/run/docker.sock']),
    );
    expect(widened.changes).toEqual([
      expect.objectContaining({
        kind: 'widening',
        where: 'personality dev: unixSockets',
        description: 'adds "/run/docker.sock"',
      }),
    ]);
    expect(widened.effective.personalities.dev?.unixSockets).toEqual(['/run/postgresql/.s.PGSQL.5432']);
    const narrowed = compareConfigurations(trusted, configuration([]));
    expect(narrowed.changes.map((change) => change.kind)).toEqual(['narrowing']);
    expect(narrowed.effective.personalities.dev?.unixSockets).toEqual([]);
  });

  it('refuses a relative socket path, saying it must be absolute', () => {
    const parsed = personalitySchema.safeParse({ unixSockets: ['docker.sock'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('must be an absolute path, e.g. /run/docker.sock');
  });
});
