/** A small deterministic generator (sfc32), so that a seed names exactly the commands a run made. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number, stream = 0) {
    this.#a = 0x9e3779b9 ^ seed;
    this.#b = 0x243f6a88 ^ Math.imul(stream, 0x85ebca6b);
    this.#c = 0xb7e15162 ^ Math.imul(seed, 0xc2b2ae35);
    this.#d = 1 ^ stream;
    for (let index = 0; index < 16; index++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick needs at least one item.');
    return items[this.int(items.length)] as T;
  }
}
