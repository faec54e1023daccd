/** A small server-sent-events reader over fetch, for tests. */

export interface SseFrame {
  event: string;
  id: string | null;
  data: string;
  /** A comment line (`: heartbeat`). */
  comment: string | null;
}

export class SseClient {
  readonly frames: SseFrame[] = [];
  private buffer = '';
  private readonly controller = new AbortController();
  private done: Promise<void> = Promise.resolve();
  status = 0;
  contentType: string | null = null;

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    const res = await fetch(url, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: client.controller.signal,
    });
    client.status = res.status;
    client.contentType = res.headers.get('content-type');
    if (!res.body) return client;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    client.done = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          client.feed(value);
        }
      } catch {
        // aborted
      }
    })();
    return client;
  }

  private feed(text: string): void {
    this.buffer += text;
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      const frame: SseFrame = { event: 'message', id: null, data: '', comment: null };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else if (line.startsWith('event:')) frame.event = line.slice(6).trim();
        else if (line.startsWith('id:')) frame.id = line.slice(3).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      frame.data = data.join('\n');
      if (frame.comment !== null && data.length === 0) frame.event = 'comment';
      this.frames.push(frame);
    }
  }

  /** Frames that are events (not comments). */
  get events(): SseFrame[] {
    return this.frames.filter((f) => f.event !== 'comment');
  }

  /** Waits for frames; `ms` only names a wait that never ends (no speed bound). */
  async waitFor(predicate: (frames: SseFrame[]) => boolean, ms = 20_000, what = 'frames'): Promise<void> {
    const until = Date.now() + ms;
    while (!predicate(this.frames)) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.frames)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.done;
  }
}
