// The PostgreSQL storage package, for Quiver's own tests in packages that must not depend on it.
export * from '@quiver/storage-postgres';
