import { describe, expect, it } from 'vitest';
import { assembleToolPool } from '../src/assembly/assemble-tool-pool.js';
import type { ModelProfile } from '../src/contracts.js';
import { listModelProfiles, resolveModelProfile } from '../src/profiles/model-profiles.js';
import { makePolicy, names, newRegistry, registerStandardTools } from './assembly-helpers.js';

describe('model profiles', () => {
  it('picks the built-in profile for each common model family', () => {
    const pick = (model: string | undefined) => {
      const profile = resolveModelProfile(model);
      return `${profile.id}/${profile.provider}/${profile.editStyle}/${profile.supportsDeferLoading}`;
    };
    expect(pick('claude-sonnet-4-5')).toBe('claude/anthropic/str_replace/true');
    expect(pick('Claude-Opus-4-1')).toBe('claude/anthropic/str_replace/true');
    expect(pick('gpt-5-mini')).toBe('gpt/openai/apply_patch/false');
    expect(pick('o3-pro')).toBe('gpt/openai/apply_patch/false');
    expect(pick('codex-mini-latest')).toBe('gpt/openai/apply_patch/false');
    expect(pick('gemini-2.5-pro')).toBe('gemini/gemini/str_replace/false');
    expect(pick('llama-3.3-70b')).toBe('default/openai/any/false');
    expect(pick(undefined)).toBe('default/openai/any/false');
  });

  it('applies personality overrides by profile id and tries custom profiles first', () => {
    const custom: ModelProfile = {
      id: 'local-qwen',
      match: ['/^qwen.*coder/'],
      provider: 'openai',
      supportsDeferLoading: false,
      editStyle: 'apply_patch',
      toolNameLimit: 48,
    };
    expect(resolveModelProfile('qwen3-coder-30b', { profiles: [custom] }).id).toBe('local-qwen');
    expect(resolveModelProfile('qwen3-chat', { profiles: [custom] }).id).toBe('default');
    expect(resolveModelProfile('gpt-5', { overrides: { gpt: { editStyle: 'str_replace' } } })).toMatchObject({
      id: 'gpt',
      editStyle: 'str_replace',
      provider: 'openai',
    });
    expect(listModelProfiles([custom]).map((profile) => profile.id)).toEqual([
      'local-qwen',
      'claude',
      'gpt',
      'gemini',
      'default',
    ]);
  });

  it('changes which edit tools a session gets when the personality overrides the edit style', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    const pool = assembleToolPool({
      registered: registry.list(),
      policy: makePolicy({ modelProfiles: { gpt: { editStyle: 'str_replace' } } }),
      options: { model: 'gpt-5' },
    });
    expect(names(pool.definitions)).toContain('edit_file');
    expect(names(pool.definitions)).not.toContain('apply_patch');
    expect(pool.executables.has('apply_patch')).toBe(false);
    expect(pool.profile.editStyle).toBe('str_replace');
  });
});
