// Public surface of @quiver/plugin-host.
export {};
