// Public surface of quiver-plugin-units.
export {};
