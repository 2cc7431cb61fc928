import { QuiverError } from '@quiver/types';
import {
  type CodePins,
  codeChange,
  NOT_PINNED,
  type PinCodeOptions,
  pinPlugin,
  pinServer,
} from './code-pins.js';
import { printable } from './printable.js';

export interface CodeTrustOptions extends Omit<PinCodeOptions, 'cache'> {
  /** Where the pins come from: the trust record, or this process's launch (`--trust-project`). */
  basis: 'record' | 'launch';
}

/**
 * Checks a plugin or stdio MCP server against the code a person's trust pinned, each time it is
 * about to load or start: nothing whose location or files differ runs.
 */
export class CodeTrust {
  constructor(
    readonly pins: CodePins,
    private readonly options: CodeTrustOptions,
  ) {}

  /** Throws `code_pin_changed` naming the file when the plugin differs from its pin. */
  checkPlugin(ref: string): void {
    const pinned = this.pins.plugins[ref];
    const change = codeChange(pinned, pinPlugin(ref, { ...this.options, cache: this.pins }));
    if (change !== undefined) throw this.#refusal(`Plugin "${ref}" was not loaded`, change, { plugin: ref });
  }

  /**
   * Throws `code_pin_changed` naming the file when the server differs from its pin. The message
   * says what to do too: the bridge reports only the message ("could not be started: …").
   */
  checkServer(name: string, config: Readonly<Record<string, unknown>>): void {
    const pinned = this.pins.servers[name];
    const change = codeChange(pinned, pinServer(config, { ...this.options, cache: this.pins }));
    if (change === undefined) return;
    const refusal = this.#refusal('', change, { server: name });
    throw new QuiverError('code_pin_changed', `${refusal.message.replace(/\.$/, '')}; ${refusal.fix}`, {
      ...(refusal.fix ? { fix: refusal.fix } : {}),
      details: refusal.details,
    });
  }

  #refusal(what: string, change: string, details: Record<string, unknown>): QuiverError {
    const since =
      change === NOT_PINNED
        ? '(it was trusted before Quiver pinned the code it runs)'
        : this.options.basis === 'launch'
          ? 'since this process pinned it at launch (--trust-project)'
          : 'since the project was trusted';
    const fix =
      this.options.basis === 'launch'
        ? '`quiver trust` reviews it; --trust-project trusts what it finds when Quiver starts, so start Quiver again if the change is yours.'
        : '`quiver trust` reviews it: if the change is yours, trusting again pins what is there now.';
    const head = what === '' ? '' : `${what}: `;
    return new QuiverError('code_pin_changed', `${head}${printable(change)} ${since}.`, {
      fix,
      details: { ...details, change },
    });
  }
}
