import { describe, expect, it } from 'vitest';
import { describePersonalitySchema, personalitySchema } from '../src/personality/index.js';

describe('describePersonalitySchema', () => {
  const keys = describePersonalitySchema();
  const byKey = new Map(keys.map((entry) => [entry.key, entry]));

  it('describes every key a personality may set, nested ones included, each with a description', () => {
    for (const topLevel of Object.keys(personalitySchema.shape)) expect(byKey.has(topLevel)).toBe(true);
    for (const nested of [
      'permissions.allow',
      'budget.resultChars',
      'deferLoading.enabled',
      'deferLoading.maxTokens',
      'mcpServers.<server>.includeTools',
      'agents.<agent>.disallowedTools',
      'modelProfiles.<profile>.editStyle',
      'modelProfiles.<profile>.deferThreshold.maxTools',
    ]) {
      expect(byKey.has(nested)).toBe(true);
    }
    const undocumented = keys.filter((entry) => entry.description.trim() === '').map((entry) => entry.key);
    expect(undocumented).toEqual([]);
  });

  it('gives readable types and the defaults used when nothing sets a key', () => {
    expect(byKey.get('toolset')).toMatchObject({ type: 'string[] | { add, remove }', default: undefined });
    expect(byKey.get('plugins')).toMatchObject({
      type: '(string | object)[] | { add, remove }',
      default: [],
    });
    expect(byKey.get('permissions.deny')).toMatchObject({ type: 'string[] | { add }', default: [] });
    expect(byKey.get('budget.resultChars')).toMatchObject({ type: 'integer', default: 80_000 });
    expect(byKey.get('deferLoading.enabled')).toMatchObject({ type: "boolean | 'auto'", default: 'auto' });
    expect(byKey.get('sandbox')).toMatchObject({ type: "'auto' | 'off' | 'required'", default: 'auto' });
    expect(byKey.get('mcpServers')?.type).toBe('map<server, true | object>');
    expect(byKey.get('secrets')?.type).toBe('map<tool, string[] | { add, remove }>');
    expect(byKey.get('plugins[].config')?.type).toBe('map<setting, unknown>');
  });
});
