// The physical cost of one extra hop: a process that copies bytes both ways between its own
// stdio and a child's, understanding nothing of what it copies. `node byte-relay.mjs <cmd> <args…>`.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code) => process.exit(code ?? 1));
process.stdin.on('end', () => child.stdin.end());
