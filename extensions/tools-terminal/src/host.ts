// What a host needs of the terminal package besides its plugin, in a module of its own: importing
// it does not load the tools, the reducer or the process tree (a `quiver call read_file` does not).
export { isAllocatedTerminal, processStartTicks } from './allocated-terminals.js';
export { sandboxNotice } from './sandbox.js';
export { createWorktreeHelpers } from './worktrees.js';
