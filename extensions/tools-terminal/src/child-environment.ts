import { childProcessEnvironment, isChildEnvironmentName } from '@quiver/types';
import { isSecretName } from './secret-names.js';

/** Picks the variables a child process needs to behave normally, never a secret. */
export function minimalEnvironment(
  source: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const environment = childProcessEnvironment(
    source,
    (name) => isChildEnvironmentName(name) && !isSecretName(name),
  );
  environment.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return environment;
}

/**
 * The environment a command runs with: the handle's base environment, filtered again in case a
 * backend let a secret through, plus the secrets the personality granted to this tool.
 */
export function commandEnvironment(
  baseEnv: Readonly<Record<string, string>>,
  grantedSecrets: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(baseEnv)) {
    if (!isSecretName(name)) environment[name] = value;
  }
  return { ...environment, ...grantedSecrets };
}
