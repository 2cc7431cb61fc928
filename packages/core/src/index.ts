// Public surface of @quiver/core.
export {};
