/**
 * Drains a child process's output as it comes (a full pipe would block the child), keeping its
 * last `max` characters for error messages.
 */
export function keepTail(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  max = 8192,
): { text(): string; done: Promise<void> } {
  let tail = "";
  const done = stream.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (tail = (tail + chunk).slice(-max)) }),
  ).catch(() => {});
  return { text: () => tail, done };
}
