import { type PutOptions, type StoreBody, StoreError } from "./types.ts";

/** The declared size of a body: a Blob's or array's own, or `options.size` for a stream. */
export function declaredSize(body: StoreBody, options: PutOptions): number {
  if (body instanceof ReadableStream) {
    if (options.size === undefined || !Number.isSafeInteger(options.size) || options.size < 0) {
      throw new TypeError("put: a ReadableStream body needs its size (options.size)");
    }
    return options.size;
  }
  const own = body instanceof Blob ? body.size : body.byteLength;
  if (options.size !== undefined && options.size !== own) {
    throw new TypeError(`put: options.size ${options.size} does not match the body's ${own} bytes`);
  }
  return own;
}

/**
 * The body as a Blob typed `contentType`. A Blob of the same type is kept as is (no copy: Deno
 * keeps Blob bytes outside the JS heap); a stream is collected and must deliver exactly `size` bytes.
 */
export async function toBlob(body: StoreBody, options: PutOptions): Promise<Blob> {
  const size = declaredSize(body, options);
  if (body instanceof Blob) {
    return body.type === options.contentType ? body : body.slice(0, body.size, options.contentType);
  }
  if (!(body instanceof ReadableStream)) {
    return new Blob([body as Uint8Array<ArrayBuffer>], { type: options.contentType });
  }
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for await (const chunk of body.pipeThrough(limitStream(size))) {
    parts.push(chunk as Uint8Array<ArrayBuffer>);
    received += chunk.byteLength;
  }
  checkComplete(received, size);
  return new Blob(parts, { type: options.contentType });
}

/** Passes at most `size` bytes; errors the stream as soon as more arrive. */
export function limitStream(size: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > size) throw new StoreError(`put: the stream delivered more than the declared ${size} bytes`);
      controller.enqueue(chunk);
    },
  });
}

export function checkComplete(received: number, size: number): void {
  if (received !== size) {
    throw new StoreError(`put: the stream delivered ${received} bytes, ${size} were declared`);
  }
}
