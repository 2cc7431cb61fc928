import type { EventBus, QuiverEvent } from '@quiver/types';
import { color, terminalText } from '../output.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * On a terminal, shows a long call while it runs: a spinner with the tool name and the latest
 * progress message, and the tool's partial output as it streams. Writes to stderr only, so
 * stdout keeps exactly the result.
 */
export function showLiveOutput(events: EventBus, stream: NodeJS.WriteStream = process.stderr): () => void {
  if (!stream.isTTY) return () => {};
  let frame = 0;
  let label = '';
  let spinning = false;
  const clear = () => {
    if (spinning) stream.write('\r\u001b[2K');
    spinning = false;
  };
  const timer = setInterval(() => {
    if (!label) return;
    spinning = true;
    stream.write(`\r\u001b[2K${color.cyan(FRAMES[frame++ % FRAMES.length] ?? '')} ${terminalText(label)}`);
  }, 80);
  timer.unref();
  const unsubscribe = events.subscribe((event: QuiverEvent) => {
    if (event.type === 'tool.execution_start') label = `running ${event.toolName}…`;
    else if (event.type === 'tool.execution_progress') {
      label = `${event.message ?? 'working'}${event.total ? ` (${event.progress}/${event.total})` : ''}`;
    } else if (event.type === 'tool.execution_partial_result') {
      clear();
      stream.write(color.dim(terminalText(event.text)));
    } else if (event.type === 'tool.execution_complete') {
      label = '';
      clear();
    }
  });
  return () => {
    clearInterval(timer);
    unsubscribe();
    clear();
  };
}
