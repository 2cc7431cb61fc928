// Public surface of @quiver/storage-sqlite.
export {};
