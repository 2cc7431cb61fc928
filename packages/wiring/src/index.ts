// Public surface of @quiver/wiring.
export {};
