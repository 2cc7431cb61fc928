// The frozen baseline's entry point used by bench/workspace-model.bench.ts.

export { PermissionEngine } from './permission-engine.js';
