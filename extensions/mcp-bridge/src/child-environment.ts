import { childProcessEnvironment } from '@quiver/types';

/** The environment of a stdio server: what every child process inherits plus what its config grants. */
export function childEnvironment(
  granted: Readonly<Record<string, string>>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  return { ...childProcessEnvironment(parent), ...granted };
}
