// Public surface of @quiver/cli (the `quiver` binary); programmatic use is for docs generation and tests.

export { EXIT } from './output.js';
export { buildProgram, runCli, VERSION } from './program.js';
export { RPC_PROTOCOL_VERSION } from './rpc/protocol.js';
export { RPC_SCHEMA_FILE, rpcProtocolReference, rpcProtocolSchema } from './rpc/protocol-document.js';
