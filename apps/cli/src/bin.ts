#!/usr/bin/env node
import { runCli } from './program.js';

const code = await runCli(process.argv);
process.exitCode = code;
// Plugins may hold handles (MCP children, timers) after the command is done.
setTimeout(() => process.exit(code), 50).unref();
