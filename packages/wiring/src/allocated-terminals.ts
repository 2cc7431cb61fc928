// The list of terminals Quiver allocated lives with the terminal tools that allocate them.
export { isAllocatedTerminal } from '@quiver/tools-terminal';
