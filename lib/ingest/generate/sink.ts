import { once } from 'node:events';
import fs from 'node:fs';

/** Streaming text output with backpressure. */
class TextSink {
  private readonly out: fs.WriteStream;
  private failure: Error | null = null;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(readonly file: string) {
    this.out = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
    this.out.on('error', (err) => {
      this.failure ??= err;
    });
  }

  /** Queues text; hands it to the stream in ~256 KB chunks, waiting for 'drain' when the stream is full. */
  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= 1 << 18) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.pending.length) return;
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (this.failure) throw this.failure;
  }

  destroy(): void {
    this.out.destroy();
  }
}

/** Runs `lines` against a sink on `file`: closed on success, destroyed on failure. */
export async function writeLines(file: string, lines: (sink: TextSink) => Promise<void>): Promise<void> {
  const sink = new TextSink(file);
  try {
    await lines(sink);
    await sink.close();
  } catch (err) {
    sink.destroy();
    throw err;
  }
}
