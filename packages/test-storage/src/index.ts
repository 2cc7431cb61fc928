// Public surface of @quiver/test-storage (private: Quiver's own tests only).

export type { BackendTestStorageOptions } from './test-storage.js';
export { createTestStorage, openTestStorageBackend } from './test-storage.js';
export { describeStorage, STORAGE_KINDS, useTestStorage } from './use-test-storage.js';
