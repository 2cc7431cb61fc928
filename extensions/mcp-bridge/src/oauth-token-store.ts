import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** What one sign-in left for one server URL: the registered client and its tokens. */
export interface OAuthRecord {
  serverUrl: string;
  clientInformation?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  /** When the tokens were saved (ms since the epoch), to tell when `expires_in` runs out. */
  savedAt?: number;
  /**
   * The scope the server asked for when the stored token was not enough (a step-up); the next
   * `quiver mcp login` asks for it even though the old token still works.
   */
  requiredScope?: string;
}

/**
 * `$XDG_DATA_HOME/quiver/oauth`, else `~/.local/share/quiver/oauth`: tokens are the user's, never
 * the workspace's. A relative XDG_DATA_HOME is ignored, as the XDG spec says.
 */
export function oauthDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(base, 'quiver', 'oauth');
}

/**
 * The server URL without its fragment. Records are keyed by URL, not by the configured name: a
 * project that names its server "github" but points it elsewhere never receives the user's token.
 */
export function canonicalServerUrl(serverUrl: string | URL): string {
  const url = new URL(serverUrl);
  url.hash = '';
  return url.href;
}

/** Tokens of remote MCP servers, one 0600 file per server URL in a 0700 directory of the user's. */
export class OAuthTokenStore {
  constructor(readonly directory: string = oauthDirectory()) {}

  pathOf(serverUrl: string | URL): string {
    const key = createHash('sha256').update(canonicalServerUrl(serverUrl)).digest('hex').slice(0, 32);
    return path.join(this.directory, `${key}.json`);
  }

  /** The record of a server; undefined when there is none, it cannot be read, or others may read it. */
  read(serverUrl: string | URL): OAuthRecord | undefined {
    const file = this.pathOf(serverUrl);
    try {
      // A token file others can read may have been copied; it is not trusted to be the user's own.
      if ((statSync(file).mode & 0o077) !== 0) return undefined;
      const record = JSON.parse(readFileSync(file, 'utf8')) as OAuthRecord;
      return record.serverUrl === canonicalServerUrl(serverUrl) ? record : undefined;
    } catch {
      return undefined;
    }
  }

  update(serverUrl: string | URL, change: (record: OAuthRecord) => OAuthRecord): OAuthRecord {
    const canonical = canonicalServerUrl(serverUrl);
    const next = change(this.read(canonical) ?? { serverUrl: canonical });
    this.write({ ...next, serverUrl: canonical });
    return next;
  }

  remove(serverUrl: string | URL): boolean {
    const file = this.pathOf(serverUrl);
    try {
      statSync(file);
    } catch {
      return false;
    }
    rmSync(file, { force: true });
    return true;
  }

  private write(record: OAuthRecord): void {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    chmodSync(this.directory, 0o700);
    const file = this.pathOf(record.serverUrl);
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    // Written under a temporary name and renamed: a crash never leaves half a token file.
    writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(temporary, 0o600);
    renameSync(temporary, file);
  }
}
