// Personality config: schema, loading with `extends`, and the session policy derived from it.

export type { CheckToolNamesOptions, PersonalityNameIssue } from './check-tool-names.js';
export { checkPersonalityToolNames } from './check-tool-names.js';
export type { PersonalityKeyDescription } from './describe-schema.js';
export { describePersonalitySchema } from './describe-schema.js';
export type { PersonalityInheritance, PersonalitySearchOptions } from './load-personality.js';
export {
  loadPersonalityFile,
  resolvePersonality,
  resolvePersonalityInheritance,
} from './load-personality.js';
export type { Personality, PersonalityFile } from './personality-schema.js';
export { PERSONALITY_DEFAULTS, personalitySchema } from './personality-schema.js';
export { toSessionPolicy } from './session-policy.js';
export { registeredToolKinds } from './tool-kinds.js';
