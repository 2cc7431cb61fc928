// Public surface of @quiver/testkit.
export { createTestHost } from './test-host.js';
export type { TestHost, TestHostOptions } from './test-host.js';
export { checkPluginContract, expectPluginContract } from './contract.js';
export type { ContractProblem } from './contract.js';
