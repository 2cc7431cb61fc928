// Public surface of @quiver/tools-terminal.
export {};
