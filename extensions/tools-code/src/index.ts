// Public surface of @quiver/tools-code.
export {};
