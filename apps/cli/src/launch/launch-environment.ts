let received: Readonly<Record<string, string>> | undefined;

/**
 * The environment Quiver was started with. After `keepSecretsInMemory` (serve and call on Linux)
 * it is the copy taken at start, held only in memory; elsewhere it is process.env. Secrets and the
 * environment allowlists of child processes read this, never process.env.
 */
export function launchEnvironment(): Readonly<Record<string, string | undefined>> {
  return received ?? process.env;
}

export function holdLaunchEnvironment(environment: Readonly<Record<string, string>>): void {
  received = Object.freeze({ ...environment });
}
