// Public surface of @quiver/cli (the `quiver` binary); programmatic use is for docs generation and tests.

export type { DoctorCheck, DoctorReport } from './doctor.js';
export { diagnose } from './doctor.js';
export { VERSION } from './global-options.js';
export { EXIT } from './output.js';
export { buildProgram } from './program.js';
export { RPC_PROTOCOL_VERSION } from './rpc/protocol.js';
export { RPC_SCHEMA_FILE, rpcProtocolReference, rpcProtocolSchema } from './rpc/protocol-document.js';
export { runCli } from './run-cli.js';
export { SETTINGS_SCHEMA_FILES, settingsJsonSchemas } from './settings-schemas.js';
