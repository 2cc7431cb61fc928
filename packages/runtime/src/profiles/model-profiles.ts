import type { ModelProfile } from '../contracts.js';

/** Used when no profile matches the model name (or no model is given). */
export const DEFAULT_MODEL_PROFILE: ModelProfile = {
  id: 'default',
  match: [],
  provider: 'openai',
  supportsDeferLoading: false,
  // No model named (a person at the CLI, an MCP client): offer both editing styles.
  editStyle: 'any',
  toolNameLimit: 64,
};

export const BUILT_IN_MODEL_PROFILES: readonly ModelProfile[] = [
  {
    id: 'claude',
    match: ['claude-', 'anthropic/'],
    provider: 'anthropic',
    supportsDeferLoading: true,
    editStyle: 'str_replace',
    toolNameLimit: 64,
    deferThreshold: { maxTools: 40, maxTokens: 20_000 },
  },
  {
    id: 'gpt',
    match: ['gpt-', 'o1', 'o3', 'o4', 'codex', 'openai/'],
    provider: 'openai',
    supportsDeferLoading: false,
    editStyle: 'apply_patch',
    toolNameLimit: 64,
  },
  {
    id: 'gemini',
    match: ['gemini-', 'google/'],
    provider: 'gemini',
    supportsDeferLoading: false,
    editStyle: 'str_replace',
    toolNameLimit: 64,
  },
  DEFAULT_MODEL_PROFILE,
];

export interface ResolveModelProfileOptions {
  /** Custom profiles; they are tried before the built-in ones. */
  profiles?: readonly ModelProfile[] | undefined;
  /** Per-profile overrides by id, from the personality. */
  overrides?: Readonly<Record<string, Partial<Omit<ModelProfile, 'id'>>>> | undefined;
}

/** Picks the profile whose `match` fits the model name (custom first), with overrides merged in. */
export function resolveModelProfile(
  model: string | undefined,
  options: ResolveModelProfileOptions = {},
): ModelProfile {
  const candidates = [...(options.profiles ?? []), ...BUILT_IN_MODEL_PROFILES];
  const name = model?.trim().toLowerCase();
  const found =
    (name
      ? candidates.find((profile) => profile.match.some((pattern) => profileMatches(pattern, name)))
      : undefined) ?? defaultProfile(candidates);
  const override =
    options.overrides && Object.hasOwn(options.overrides, found.id) ? options.overrides[found.id] : undefined;
  return override ? { ...found, ...override, id: found.id } : found;
}

/** Lists every profile a lookup can pick, custom first, for `quiver tools --model`. */
export function listModelProfiles(profiles: readonly ModelProfile[] = []): ModelProfile[] {
  return [...profiles, ...BUILT_IN_MODEL_PROFILES];
}

function profileMatches(pattern: string, name: string): boolean {
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/'))
    return new RegExp(pattern.slice(1, -1), 'i').test(name);
  return name.startsWith(pattern.toLowerCase());
}

function defaultProfile(candidates: readonly ModelProfile[]): ModelProfile {
  return candidates.find((profile) => profile.id === 'default') ?? DEFAULT_MODEL_PROFILE;
}
