// Public surface of @quiver/testkit.
export {};
