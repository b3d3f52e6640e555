/**
 * UTF-8 text that only grows, held encoded: appending encodes only what is added, and the whole is handed out as a
 * view of one buffer (its capacity doubled as needed), so a file rewritten with it does not encode it all again.
 */
export class GrowingBytes {
  private buf = Buffer.alloc(0);
  private length = 0;

  append(text: string): void {
    const need = this.length + Buffer.byteLength(text, 'utf8');
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2, 4096));
      this.buf.copy(grown, 0, 0, this.length);
      this.buf = grown;
    }
    this.length += this.buf.write(text, this.length, 'utf8');
  }

  /** The bytes so far; valid until the next append (which may move them). */
  view(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
