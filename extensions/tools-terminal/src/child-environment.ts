import { isSecretName } from './secret-names.js';

const PASSED_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TMPDIR',
  'SHELL',
  'TZ',
  'COLORTERM',
  'NO_COLOR',
]);

/** Picks the variables a child process needs to behave normally, never a secret. */
export function minimalEnvironment(
  source: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (!PASSED_NAMES.has(name) && !name.startsWith('LC_')) continue;
    if (isSecretName(name)) continue;
    environment[name] = value;
  }
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
