import { setFlagsFromString } from 'node:v8';

/** Commands that start, do one thing and end. */
const SHORT_LIVED_COMMANDS: ReadonlySet<string> = new Set(['call', 'tools']);
/** Commands that keep running (a gateway, a session): their memory stays as V8 sizes it. */
const LONG_RUNNING_COMMANDS: ReadonlySet<string> = new Set(['serve', 'rpc']);

/**
 * A short-lived command lets V8's young generation grow to its usual maximum in one step instead
 * of doubling from 1 MB. Starting `quiver call` allocates ~18 MB that mostly lives until the end;
 * from 1 MB, V8 ran 8–9 scavenges copying it (20–45 ms of a ~350 ms call); now 2–3. The most the
 * young generation can take is unchanged (its maximum is not touched), and commands that keep
 * running (`serve`, `rpc`) are left as they are.
 */
export function growYoungGenerationAtOnce(argv: readonly string[]): void {
  const commands = argv.slice(2);
  if (commands.some((argument) => LONG_RUNNING_COMMANDS.has(argument))) return;
  if (commands.some((argument) => SHORT_LIVED_COMMANDS.has(argument)))
    setFlagsFromString('--semi-space-growth-factor=16');
}
