// The list of terminals Quiver allocated, and the hardened git worktree helpers, live with the terminal tools.
export { createWorktreeHelpers, isAllocatedTerminal, processStartTicks } from '@quiver/tools-terminal/host';
