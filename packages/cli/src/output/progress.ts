/** What an apply reports as it goes. */
export interface ProgressEvent {
  /** What is running (default `apply`). */
  label?: string;
  /** What `done` and `total` count (default `resources`; a fleet run counts hosts). */
  unit?: string;
  done: number;
  total: number;
  step: string;
}

/**
 * A live progress line on a terminal's stderr (resources done / total, the step running, the
 * time spent), redrawn in place and cleared before any other output. Nothing at all when stderr
 * is not a terminal: logs and pipes get the plain lines only.
 */
export class ProgressLine {
  private shown = false;
  private readonly started = performance.now();
  private last: ProgressEvent | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  get enabled(): boolean {
    return Boolean(this.stream.isTTY);
  }

  update(event: ProgressEvent): void {
    if (!this.enabled) return;
    this.last = event;
    this.draw();
    this.timer ??= setInterval(() => this.draw(), 250).unref();
  }

  /** Clears the line (before printing something else, and at the end). */
  clear(): void {
    if (this.shown) this.stream.write("\r\u001b[2K");
    this.shown = false;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  private draw(): void {
    if (!this.last) return;
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    const text = `${this.last.label ?? "apply"}: ${this.last.done}/${this.last.total} ${this.last.unit ?? "resources"} · ${this.last.step} · ${seconds} s`;
    const width = this.stream.columns ?? 80;
    this.stream.write(`\r\u001b[2K${text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text}`);
    this.shown = true;
  }
}
