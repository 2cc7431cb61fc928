// The frozen baseline's entry points used by the benchmarks.

export { PermissionEngine } from './permission-engine.js';
export { analyzeShellCommand } from './shell/analyze-shell-command.js';
