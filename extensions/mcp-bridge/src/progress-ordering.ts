import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

function isResponse(message: JSONRPCMessage): boolean {
  return 'id' in message && !('method' in message);
}

function isProgress(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'notifications/progress';
}

/**
 * The SDK dispatches a progress notification asynchronously but settles a response at once,
 * dropping the progress handler with it: the last progress before a result was lost. While a
 * progress notification is being dispatched, a response waits one event-loop turn behind it.
 * Call after `connect`, which installs the handler being wrapped.
 */
export function deliverProgressBeforeResponses(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  let progressInFlight = false;
  transport.onmessage = (message, extra) => {
    if (isProgress(message)) {
      if (!progressInFlight) {
        progressInFlight = true;
        setImmediate(() => {
          progressInFlight = false;
        });
      }
    } else if (progressInFlight && isResponse(message)) {
      setImmediate(() => deliver.call(transport, message, extra));
      return;
    }
    deliver.call(transport, message, extra);
  };
}
