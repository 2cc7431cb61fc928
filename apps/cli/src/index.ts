// Public surface of @quiver/cli.
export {};
