// Public surface of @quiver/core.
export type { AttachmentLimits } from './budget.js';
export { capAttachments, DEFAULT_ATTACHMENT_LIMITS, splitBudget, trimResult } from './budget.js';
export { didYouMean } from './did-you-mean.js';
export { dryRunResult, maxResultChars } from './execute-call.js';
export type { ExecuteContext } from './execute-context.js';
export type { ToolTarget } from './execute-tool.js';
export { availabilityOf } from './gates.js';
export { deriveJsonSchema } from './json-schema.js';
export { reduceResult } from './reduce-result.js';
export { DefaultToolResultReducerRegistry } from './reducer-registry.js';
export { InMemorySessionState } from './session-state.js';
export type { DefaultToolRegistryOptions } from './tool-registry.js';
export { DefaultToolRegistry } from './tool-registry.js';
export type { ToolRun } from './tool-runner.js';
export { ToolRunner } from './tool-runner.js';
export type { ArgsValidation } from './validate-args.js';
export { validateArgs, validateArgsNow } from './validate-args.js';
