// Public surface of @quiver/cli (the `quiver` binary); programmatic use is for docs generation and tests.

export { EXIT } from './output.js';
export { buildProgram, runCli, VERSION } from './program.js';
export { RPC_PROTOCOL_VERSION } from './rpc/protocol.js';
export { rpcProtocolReference } from './rpc/protocol-document.js';
