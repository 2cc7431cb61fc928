// Public surface of @quiver/testkit.

export type { ContractOptions, ContractProblem } from './contract.js';
export { checkPluginContract, expectPluginContract } from './contract.js';
export type { TestHost, TestHostOptions } from './test-host.js';
export { createTestHost } from './test-host.js';
