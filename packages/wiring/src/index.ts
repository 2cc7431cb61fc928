// Public surface of @quiver/wiring: the one package that knows every first-party extension.
export { FIRST_PARTY_PLUGINS, createQuiver } from './create-quiver.js';
export type { CreateQuiverOptions, Quiver } from './create-quiver.js';
export { DEFAULT_PERSONALITY, FIRST_PARTY_PLUGIN_IDS } from './default-personality.js';
export { createFirstPartyBackends } from './backends.js';
export { resultFromRawOutput } from './raw-output.js';
