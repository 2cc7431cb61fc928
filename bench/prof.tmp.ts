import { analyzeShellCommand } from '@quiver/permissions';
import { analyzeShellCommand as frozen } from './frozen-analyzer/index.js';
import { changedWorkspaceCode } from '../packages/permissions/src/workspace-code.js';
const CHAIN = 'git status --short && git diff --stat | tail -1; ls -la src | wc -l || echo failed';
for (const [name, fn] of [['frozen', frozen], ['proof', analyzeShellCommand]] as const) {
  for (let i = 0; i < 500; i++) await fn(CHAIN);
  const t = performance.now();
  for (let i = 0; i < 3000; i++) await fn(CHAIN);
  console.log(name, ((performance.now() - t) / 3000 * 1000).toFixed(1), 'µs');
}
const t = performance.now();
for (let i = 0; i < 3000; i++) changedWorkspaceCode(['git', 'status'], ['.'], '/tmp', Date.now());
console.log('git code check', ((performance.now() - t) / 3000 * 1000).toFixed(1), 'µs');
