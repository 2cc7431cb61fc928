// Public surface of @quiver/tools-memory.
export {};
