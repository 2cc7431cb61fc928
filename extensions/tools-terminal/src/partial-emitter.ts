import { StringDecoder } from 'node:string_decoder';
import type { ToolEmission } from '@quiver/types';

export interface PartialEmitterOptions {
  intervalMs?: number;
  /** Most bytes sent per interval; the rest is skipped with a marker so a flood cannot flood the UI. */
  maxBytesPerInterval?: number;
}

/** Coalesces output into `partial` emissions at most every `intervalMs`, bounded in size. */
export class PartialEmitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skippedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly emit: (emission: ToolEmission) => void,
    options: PartialEmitterOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 100;
    this.maxBytes = options.maxBytesPerInterval ?? 16 * 1024;
  }

  push(chunk: Buffer): void {
    const room = this.maxBytes - this.pendingBytes;
    if (room > 0) {
      const kept = chunk.length <= room ? Buffer.from(chunk) : Buffer.from(chunk.subarray(0, room));
      this.pending.push(kept);
      this.pendingBytes += kept.length;
    }
    this.skippedBytes += Math.max(0, chunk.length - Math.max(room, 0));
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingBytes === 0 && this.skippedBytes === 0) return;
    let text = this.decoder.write(Buffer.concat(this.pending, this.pendingBytes));
    if (this.skippedBytes > 0)
      text += `\n[… ${this.skippedBytes.toLocaleString('en-US')} bytes not streamed …]\n`;
    this.pending = [];
    this.pendingBytes = 0;
    this.skippedBytes = 0;
    if (text.length > 0) {
      try {
        this.emit({ type: 'partial', text });
      } catch {
        // A failing listener must not break the command.
      }
    }
  }
}
