import type { CreateQuiverOptions } from '../src/create-quiver.js';
import type { OPTION_KEYS } from '../src/option-keys.js';

// Compiles only while the keys createQuiver checks are exactly the keys of its options.
type Listed = keyof typeof OPTION_KEYS;
type Missing = Exclude<keyof CreateQuiverOptions, Listed>;
type Unknown = Exclude<Listed, keyof CreateQuiverOptions>;
export const everyOptionIsListed: [Missing, Unknown] extends [never, never] ? true : never = true;
