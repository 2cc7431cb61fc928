import type { SessionState } from '@quiver/types';
import { OutputWindow, type WindowedOutput } from '../output-window.js';
import type { CommandExit, RunningCommand } from '../running-command.js';

export const SHELLS_SESSION_KEY = 'quiver.tools-terminal.shells';
export const MAX_SHELLS_PER_SESSION = 16;

/** One background command: its process and the output nobody has read yet. */
export class BackgroundShell {
  private unread: OutputWindow;
  private exitInfo: CommandExit | undefined;
  private command_: RunningCommand | undefined;
  readonly startedAt = Date.now();

  constructor(
    readonly id: string,
    readonly command: string,
    readonly cwd: string,
    readonly sandboxed: boolean,
    private readonly spillDir: string,
    private readonly spillLimitBytes?: number,
    readonly pty = false,
  ) {
    this.unread = this.newWindow();
  }

  private newWindow(): OutputWindow {
    return new OutputWindow({
      spillDir: this.spillDir,
      spillName: `${this.id}-${Date.now()}.log`,
      spillLimitBytes: this.spillLimitBytes,
    });
  }

  attach(running: RunningCommand): void {
    this.command_ = running;
    void running.exited.then((exit) => {
      this.exitInfo = exit;
      this.unread.close();
    });
  }

  get process(): RunningCommand {
    if (!this.command_) throw new Error(`Background shell ${this.id} has no process attached.`);
    return this.command_;
  }

  get exit(): CommandExit | undefined {
    return this.exitInfo;
  }

  receive(chunk: Buffer): void {
    this.unread.write(chunk);
  }

  /** The output since the last read; the next read starts after it. */
  takeUnread(): WindowedOutput {
    const window = this.unread;
    this.unread = this.newWindow();
    window.close();
    return window.result();
  }
}

/** The background shells of one session; all of them are stopped when the session ends. */
export class BackgroundShells {
  private readonly shells = new Map<string, BackgroundShell>();
  private counter = 0;

  nextId(): string {
    this.counter += 1;
    return `shell-${this.counter}`;
  }

  get size(): number {
    return this.shells.size;
  }

  add(shell: BackgroundShell): void {
    this.shells.set(shell.id, shell);
  }

  get(id: string): BackgroundShell | undefined {
    return this.shells.get(id);
  }

  remove(id: string): void {
    this.shells.delete(id);
  }

  list(): BackgroundShell[] {
    return [...this.shells.values()];
  }

  async stopAll(): Promise<void> {
    const shells = this.list();
    this.shells.clear();
    await Promise.all(shells.map((shell) => shell.process.stop()));
  }
}

export function backgroundShellsOf(session: SessionState): BackgroundShells {
  let shells = session.get<BackgroundShells>(SHELLS_SESSION_KEY);
  if (!shells) {
    shells = new BackgroundShells();
    session.set(SHELLS_SESSION_KEY, shells, (value) => value.stopAll());
  }
  return shells;
}
