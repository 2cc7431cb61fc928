// Public surface of @quiver/cli (the `quiver` binary); programmatic use is for docs generation and tests.
export { VERSION, buildProgram, runCli } from './program.js';
export { EXIT } from './output.js';
