// Public surface of @quiver/core.
export type { AttachmentLimits } from './budget.js';
export { DEFAULT_ATTACHMENT_LIMITS, splitBudget, trimResult } from './budget.js';
export { deriveJsonSchema } from './json-schema.js';
export { DefaultToolResultReducerRegistry } from './reducer-registry.js';
export { InMemorySessionState } from './session-state.js';
export type { DefaultToolRegistryOptions } from './tool-registry.js';
export { DefaultToolRegistry } from './tool-registry.js';
