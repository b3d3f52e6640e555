export interface LineEvents {
  line(text: string): void;
  /** More than the bound arrived without a newline; nothing more is split after it. */
  overlong(limit: number): void;
  /** A line that is not UTF-8: `at` is the offset of its first bad byte, `text` the line with U+FFFD in its place. */
  notUtf8(at: number, text: string): void;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Splits a plugin's stdout bytes into lines, in bounded memory: at most `limit` bytes are held for a line, and a line
 * is decoded only once whole, strictly, so a byte that is not UTF-8 is reported rather than read as U+FFFD (which
 * would let a broken reply pass as a value).
 */
export class StdoutLines {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private stopped = false;

  constructor(
    private readonly limit: number,
    private readonly events: LineEvents,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.stopped && start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      if (this.heldBytes + (end - start) > this.limit) {
        this.events.overlong(this.limit);
        return this.stop();
      }
      this.held.push(chunk.subarray(start, end));
      this.heldBytes += end - start;
      if (nl < 0) return;
      start = nl + 1;
      this.emit(true);
    }
  }

  /** The end of stdout: a last line without its newline is still evidence of what the plugin said. */
  end(): void {
    if (!this.stopped && this.heldBytes > 0) this.emit(false);
    this.stop();
  }

  /** The start (up to `max` bytes) of what was received after the last newline (a reply never finished), as text. */
  partial(max = 65536): string {
    const start: Buffer[] = [];
    for (let n = 0, i = 0; n < max && i < this.held.length; n += this.held[i++]!.length) start.push(this.held[i]!);
    return Buffer.concat(start).subarray(0, max).toString('utf8');
  }

  private emit(strip: boolean): void {
    let bytes = Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    if (strip && bytes.at(-1) === 13) bytes = bytes.subarray(0, -1);
    let text: string;
    try {
      text = strict.decode(bytes);
    } catch {
      text = bytes.toString('utf8');
      // What decodes cleanly encodes back to the same bytes: the first difference is the first bad byte.
      const again = Buffer.from(text, 'utf8');
      let at = 0;
      while (at < bytes.length && bytes[at] === again[at]) at++;
      return this.events.notUtf8(at, text);
    }
    this.events.line(text);
  }

  private stop(): void {
    this.stopped = true;
    this.held = [];
    this.heldBytes = 0;
  }
}
