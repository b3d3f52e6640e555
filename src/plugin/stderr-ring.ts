/** Keeps the last `limit` bytes a plugin wrote to stderr, so errors can quote it without unbounded memory. */
export class StderrRing {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit = 8192) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= this.limit) this.size -= this.chunks.shift()!.length;
  }

  /** The kept text, trimmed to `limit` bytes and to whole lines where possible. */
  text(): string {
    let buf = Buffer.concat(this.chunks);
    if (buf.length > this.limit) {
      buf = buf.subarray(buf.length - this.limit);
      const nl = buf.indexOf(10);
      if (nl >= 0 && nl < buf.length - 1) buf = buf.subarray(nl + 1);
    }
    return buf.toString('utf8').trimEnd();
  }
}
