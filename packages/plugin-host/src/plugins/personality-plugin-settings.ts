import { AsyncLocalStorage } from 'node:async_hooks';
import { type PluginDefinition, QuiverError, type Tool } from '@quiver/types';
import type { Personality } from '../personality/index.js';
import { parsePluginConfig } from './plugin-config.js';

type Settings = Readonly<Record<string, unknown>>;

/** A loaded plugin, and its raw settings under a personality (default: the host's starting one). */
export interface PluginSettingsSource {
  definition: PluginDefinition<any, any>;
  raw: (personality?: Personality) => Record<string, unknown>;
}

/** Where a personality's settings for one plugin are written, for error messages. */
function personalityLocation(personality: Personality): string {
  const file = personality.sources[0];
  return file === undefined || file.startsWith('embedded:')
    ? `personality "${personality.id}"`
    : `personality "${personality.id}" (${file})`;
}

/**
 * Plugins load once per host, but each personality may give a plugin settings of its own
 * (`plugins: [{ id, config }]`). The `config` service a plugin receives is a view: while one of
 * its tools runs, it shows the settings of the calling session's personality; at any other
 * time (in `register`), the host's starting ones. A plugin that reads its settings when a tool
 * runs therefore follows the personality; one that copies them in `register` does not.
 */
export class PersonalityPluginSettings {
  readonly #calling = new AsyncLocalStorage<string>();
  /** Personality id → plugin id → that personality's parsed settings. */
  readonly #byPersonality = new Map<string, ReadonlyMap<string, Settings>>();
  /** Plugins some personality gives settings of its own: only their calls need the personality known. */
  readonly #personal = new Set<string>();

  /** The settings of each enabled plugin whose settings differ under this personality, parsed by its schema. */
  settle(personality: Personality, plugins: Iterable<PluginSettingsSource>): void {
    const settings = new Map<string, Settings>();
    for (const { definition, raw } of plugins) {
      // A plugin the personality does not enable runs none of its calls.
      if (!personality.plugins.includes(definition.id)) continue;
      const own = raw(personality);
      if (JSON.stringify(own) === JSON.stringify(raw())) continue;
      settings.set(definition.id, Object.freeze({ ...this.#parse(definition, own, personality) }));
      this.#personal.add(definition.id);
    }
    this.#byPersonality.set(personality.id, settings);
  }

  #parse(definition: PluginDefinition<any, any>, raw: Record<string, unknown>, personality: Personality) {
    try {
      return parsePluginConfig(definition, raw);
    } catch (error) {
      if (!(error instanceof QuiverError)) throw error;
      const where = personalityLocation(personality);
      const issues = (error.details.issues ?? []) as Array<{ key: string; message: string }>;
      const keys = [...new Set(issues.map((issue) => issue.key))].filter((key) => key !== '(root)');
      throw new QuiverError(
        'config_invalid',
        `The settings ${where} gives plugin "${definition.id}" do not match its schema:\n${issues.map((issue) => `  - ${issue.key}: ${issue.message}`).join('\n')}`,
        {
          fix: `Correct ${keys.length > 0 ? keys.map((key) => `\`${key}\``).join(', ') : 'the settings'} in the \`config\` of the \`{ id: ${definition.id}, config }\` entry of its \`plugins\`, or in \`pluginConfig.${definition.id}\` of quiver.yaml; \`quiver plugins\` lists the settings the plugin takes.`,
          details: {
            personality: personality.id,
            source: personality.sources[0],
            plugin: definition.id,
            issues,
          },
          cause: error,
        },
      );
    }
  }

  /** What a plugin receives as its `config` service. */
  view(pluginId: string, hostSettings: Settings): Settings {
    const current = (): Settings => {
      const personalityId = this.#calling.getStore();
      if (personalityId === undefined) return hostSettings;
      return this.#byPersonality.get(personalityId)?.get(pluginId) ?? hostSettings;
    };
    const refuse = (): never => {
      throw new QuiverError('usage', `Plugin "${pluginId}" tried to change its settings.`, {
        fix: 'Settings are read-only: copy them before changing anything.',
      });
    };
    return new Proxy<Record<string, unknown>>(
      {},
      {
        get: (_target, key) => Reflect.get(current(), key),
        has: (_target, key) => Reflect.has(current(), key),
        ownKeys: () => Reflect.ownKeys(current()),
        getOwnPropertyDescriptor: (_target, key) => {
          const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
          // A proxy may not report a property as non-configurable that its own target lacks.
          return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
        },
        set: refuse,
        defineProperty: refuse,
        deleteProperty: refuse,
      },
    );
  }

  /** The tool as registered: while it runs, its plugin's `config` view shows the calling personality's settings. */
  bind(tool: Tool, pluginId: string): Tool {
    const execute = tool.execute;
    const personalExecute: Tool['execute'] = (args, ctx) =>
      this.#personal.has(pluginId)
        ? this.#calling.run(ctx.personalityId, () => execute.call(tool, args, ctx))
        : execute.call(tool, args, ctx);
    const own = Object.getOwnPropertyDescriptor(tool, 'execute');
    // A proxy cannot report another value for a frozen property: such a tool is copied instead.
    if (own?.configurable === false && own.writable === false)
      return Object.assign(Object.create(Object.getPrototypeOf(tool)), tool, { execute: personalExecute });
    return new Proxy(tool, {
      get: (target, key, receiver) =>
        key === 'execute' ? personalExecute : Reflect.get(target, key, receiver),
    });
  }
}
