// The list of terminals Quiver allocated, and the hardened git worktree helpers, live with the terminal tools.
export { createWorktreeHelpers, isAllocatedTerminal } from '@quiver/tools-terminal/host';
