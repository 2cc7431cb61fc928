import { type PersonSettings, QuiverHost, readPersonSettings } from '@quiver/plugin-host';
import type { SessionOptions } from '@quiver/runtime';
import { QuiverError } from '@quiver/types';

/** The person's and the machine's settings layers, read once per instance. */
export function personSettingsOf(env: NodeJS.ProcessEnv | undefined): PersonSettings {
  return readPersonSettings(env ?? process.env);
}

/** Managed settings may forbid `--trust-project`: projects are then trusted with `quiver trust` only. */
export function checkTrustProjectAllowed(trustProject: unknown, person: PersonSettings): void {
  if (!trustProject || person.allowTrustProject) return;
  const managed = person.files.find((file) => file.scope === 'managed')?.file;
  throw new QuiverError(
    'usage',
    `--trust-project is turned off on this machine by ${managed} (allowTrustProject: false).`,
    {
      fix: 'Review the project configuration and trust it with `quiver trust`, then start Quiver without --trust-project.',
      details: { file: managed },
    },
  );
}

/** Session options with the rules of the person's and the machine's layers added: theirs hold in every session. */
export function withPersonRules<T extends SessionOptions>(options: T, person: PersonSettings): T {
  const { allow, ask, deny } = person.permissions;
  if (allow.length + ask.length + deny.length === 0) return options;
  const own = options.permissions ?? {};
  return {
    ...options,
    permissions: {
      allow: [...allow, ...(own.allow ?? [])],
      ask: [...ask, ...(own.ask ?? [])],
      deny: [...deny, ...(own.deny ?? [])],
    },
  };
}

/**
 * A server the person's or the machine's layer defines (and the project did not replace) is theirs:
 * no project trust pins its code.
 */
export function isPersonServer(host: QuiverHost, person: PersonSettings, server: string): boolean {
  const own = person.mcpServers[server];
  const effective = (host.options.config.mcpServers as Record<string, unknown>)[server];
  return own !== undefined && JSON.stringify(own) === JSON.stringify(effective);
}
