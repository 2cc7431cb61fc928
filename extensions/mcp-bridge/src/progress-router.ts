import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface ProgressSubscription {
  token: string;
  close(): void;
}

function progressParams(message: JSONRPCMessage): Record<string, unknown> | undefined {
  if (!('method' in message) || message.method !== 'notifications/progress' || 'id' in message)
    return undefined;
  const params = message.params;
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : undefined;
}

/**
 * Routes `notifications/progress` for the bridge's own progress tokens, synchronously as each
 * message is read. The SDK's `onprogress` dispatches progress asynchronously but settles the
 * response at once, so the last progress before a result was lost; it also costs more per call.
 */
export class ProgressRouter {
  private readonly handlers = new Map<string, (update: ProgressUpdate) => void>();
  private nextToken = 0;

  /** Call after `connect`, which installs the handler being wrapped. */
  attach(transport: Transport): void {
    const deliver = transport.onmessage;
    if (deliver === undefined) return;
    transport.onmessage = (message, extra) => {
      const params = progressParams(message);
      const token = params?.progressToken;
      const handler = typeof token === 'string' ? this.handlers.get(token) : undefined;
      if (params !== undefined && handler !== undefined && typeof params.progress === 'number') {
        handler({
          progress: params.progress,
          total: typeof params.total === 'number' ? params.total : undefined,
          message: typeof params.message === 'string' ? params.message : undefined,
        });
        return;
      }
      deliver.call(transport, message, extra);
    };
  }

  subscribe(handler: (update: ProgressUpdate) => void): ProgressSubscription {
    const token = `quiver-${++this.nextToken}`;
    this.handlers.set(token, handler);
    return { token, close: () => this.handlers.delete(token) };
  }
}
