// Public surface of @quiver/wiring: the one package that knows every first-party extension.

/** Checks `mcpServers` entries as the bridge will (what `quiver mcp add` validates before writing). */
export { readMcpServersConfig } from '@quiver/mcp-bridge/config';
export { createWorktreeHelpers, isAllocatedTerminal, processStartTicks } from './allocated-terminals.js';
export { createFirstPartyBackends } from './backends.js';
export type { CheckStoresOptions } from './check-stores.js';
export { checkStores } from './check-stores.js';
export type { CreateQuiverOptions, Quiver, QuiverSessionOptions } from './create-quiver.js';
export {
  createQuiver,
  inspectQuiverProject,
  loadAllFirstPartyPlugins,
  openQuiverProjectTrust,
} from './create-quiver.js';
export { DEFAULT_PERSONALITY, FIRST_PARTY_PLUGIN_IDS } from './default-personality.js';
export type { McpLoginRequest } from './mcp-login.js';
export { loginToConfiguredMcpServer } from './mcp-login.js';
export { resultFromRawOutput } from './raw-output.js';
