// Public surface of @quiver/cli (the `quiver` binary); programmatic use is for docs generation and tests.

export { EXIT } from './output.js';
export { buildProgram, runCli, VERSION } from './program.js';
