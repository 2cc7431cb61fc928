import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A fixture Node process answering JSON-line requests `{ id, ... }` with `{ id, result }`. */
export class WorkerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private nextId = 0;
  private readonly pending = new Map<number, (result: any) => void>();
  private stderr = '';

  constructor(scriptPath: string, args: string[]) {
    this.child = spawn(process.execPath, [scriptPath, ...args], { stdio: 'pipe' });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const { id, result } = JSON.parse(line) as { id: number; result: unknown };
      this.pending.get(id)?.(result);
      this.pending.delete(id);
    });
    this.child.on('exit', (code) => {
      for (const reject of this.pending.values())
        reject({ ok: false, code: 'exited', error: `${code}: ${this.stderr}` });
      this.pending.clear();
    });
  }

  request(message: Record<string, unknown>): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ ...message, id })}\n`);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}
