/** The last `capacity` bytes written, in one preallocated buffer (no allocation per write). */
export class ByteRing {
  private readonly buffer: Buffer;
  /** Where the next byte goes. */
  private position = 0;
  private filled = 0;

  constructor(readonly capacity: number) {
    this.buffer = Buffer.alloc(capacity);
  }

  get length(): number {
    return this.filled;
  }

  write(chunk: Buffer): void {
    if (this.capacity === 0) return;
    if (chunk.length >= this.capacity) {
      chunk.copy(this.buffer, 0, chunk.length - this.capacity);
      this.position = 0;
      this.filled = this.capacity;
      return;
    }
    const first = Math.min(chunk.length, this.capacity - this.position);
    chunk.copy(this.buffer, this.position, 0, first);
    chunk.copy(this.buffer, 0, first);
    this.position = (this.position + chunk.length) % this.capacity;
    this.filled = Math.min(this.capacity, this.filled + chunk.length);
  }

  /** The kept bytes, oldest first, as a new buffer. */
  contents(): Buffer {
    if (this.filled < this.capacity) return Buffer.from(this.buffer.subarray(0, this.filled));
    return Buffer.concat([this.buffer.subarray(this.position), this.buffer.subarray(0, this.position)]);
  }
}
