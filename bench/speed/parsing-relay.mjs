// The floor of a gateway that reads what it relays: a process that parses every line both ways
// (JSON.parse) and writes it again (JSON.stringify), understanding nothing else.
// `node parsing-relay.mjs <cmd> <args…>`; beside byte-relay.mjs in speed.bench.ts.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

/** Calls `onMessage` with each newline-terminated JSON message of `stream`, parsed. */
function messages(stream, onMessage) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    rest += chunk;
    for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
      const line = rest.slice(0, end);
      rest = rest.slice(end + 1);
      if (line.trim() !== '') onMessage(JSON.parse(line));
    }
  });
}

messages(process.stdin, (message) => child.stdin.write(`${JSON.stringify(message)}\n`));
messages(child.stdout, (message) => process.stdout.write(`${JSON.stringify(message)}\n`));
child.on('exit', (code) => process.exit(code ?? 1));
process.stdin.on('end', () => child.stdin.end());
