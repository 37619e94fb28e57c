/**
 * A request's timeout (issue 29, L4): given up when no bytes move either way for `ms` (connecting, sending the
 * file, waiting for the answer, reading it). Not a deadline for the whole request: a large file on a slow line
 * keeps it alive, and a server that answers nothing while it compresses must fit inside `ms`.
 */
export class IdleTimeout {
  readonly #own = new AbortController();
  readonly #reason: () => Error;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  /** Aborts when the time runs out, or when `parent` aborts. */
  readonly signal: AbortSignal;

  /** `reason` makes the error a timed-out request rejects with. */
  constructor(readonly ms: number, reason: () => Error, parent?: AbortSignal) {
    this.#reason = reason;
    this.signal = parent ? AbortSignal.any([parent, this.#own.signal]) : this.#own.signal;
    this.touch();
  }

  /** True once the time ran out (not when the parent aborted). */
  get expired(): boolean {
    return this.#own.signal.aborted;
  }

  /** Bytes moved: the time starts again. */
  touch(): void {
    clearTimeout(this.#timer);
    if (this.#stopped || this.expired) return;
    this.#timer = setTimeout(() => this.#own.abort(this.#reason()), this.ms);
  }

  /** The request is over (or handed to something with its own end): no more timing. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /**
   * `stream` as it is read, each chunk starting the time again; a read that fails because the time ran out
   * fails with the timeout's error. With `stopAtEnd`, its end (read to the end, failed or cancelled) stops the timing.
   */
  watch<T>(stream: ReadableStream<T>, { stopAtEnd = false } = {}): ReadableStream<T> {
    const reader = stream.getReader();
    const end = () => stopAtEnd && this.stop();
    return new ReadableStream<T>({
      pull: async (controller) => {
        let chunk: ReadableStreamReadResult<T>;
        try {
          chunk = await reader.read();
        } catch (err) {
          end();
          throw this.expired ? this.#own.signal.reason : err;
        }
        if (chunk.done) {
          end();
          controller.close();
          return;
        }
        this.touch();
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => {
        end();
        return reader.cancel(reason);
      },
    });
  }
}
