/**
 * A compressor whose jobs finish only when the test says so, for asserting the
 * scheduler's order and the controls. Files are tagged JPEG-looking bytes
 * (`taggedFile("a1")`), so a call can be named.
 */
import type { CompressCall, Compressor, CompressOutcome } from "../../server/services/compression/compressor.ts";
import type { CompressSettings } from "../../contract/settings.ts";
import { type ImageInput, inputBytes } from "../../codecs/types.ts";

const PREFIX = [0xff, 0xd8, 0xff, 0xfe];
export const HELD_SCORES = { ssimulacra2: 90, score: 90, sharpness: 90, colorAccuracy: 90, artifacts: 90, overall: 90 };

export function taggedFile(tag: string, name = `${tag}.jpg`, padTo = 0): File {
  const text = new TextEncoder().encode(`tag:${tag};`);
  const bytes = new Uint8Array(Math.max(PREFIX.length + text.length, padTo));
  bytes.set(PREFIX);
  bytes.set(text, PREFIX.length);
  return new File([bytes], name, { type: "image/jpeg" });
}

function tagOf(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(PREFIX.length, PREFIX.length + 64));
  return text.match(/^tag:([^;]*);/)?.[1] ?? "?";
}

export interface HeldCall {
  tag: string;
  settings: CompressSettings;
  call: CompressCall;
  finish(outcome?: Partial<CompressOutcome>): void;
  fail(error: Error): void;
  aborted: boolean;
  /** Finished, failed or aborted: the call no longer holds its job. */
  settled: boolean;
}

export class HeldCompressor implements Compressor {
  readonly calls: HeldCall[] = [];
  #waiters: Array<() => void> = [];

  constructor(readonly size = 1) {}

  async compress(input: ImageInput, settings: CompressSettings, call: CompressCall): Promise<CompressOutcome> {
    const bytes = await inputBytes(input);
    return await new Promise((resolve, reject) => {
      const held: HeldCall = {
        tag: tagOf(bytes),
        settings,
        call,
        aborted: false,
        settled: false,
        finish: (o = {}) => {
          held.settled = true;
          resolve({
            bytes: bytes.slice(0, Math.max(4, Math.floor(bytes.length / 2))),
            mimeType: "image/jpeg",
            encoder: "mozjpeg",
            width: 10,
            height: 10,
            compressedSize: Math.max(4, Math.floor(bytes.length / 2)),
            keptOriginal: false,
            scores: HELD_SCORES,
            metadata: { found: [], kept: [], removed: [], orientation: 1 },
            chosenQuality: null,
            thumbnail: Uint8Array.of(0xff, 0xd8, 0xff, 0xd9),
            ...o,
          });
        },
        fail: (error) => {
          held.settled = true;
          reject(error);
        },
      };
      call.signal.addEventListener("abort", () => {
        held.aborted = held.settled = true;
        reject(call.signal.reason);
      });
      this.calls.push(held);
      this.#waiters.splice(0).forEach((w) => w());
    });
  }

  /** Deferred scores (of jobs finished with `scores: null`), held until the test finishes them. */
  readonly scoreCalls: { tag: string; finish(): void }[] = [];
  async score(input: ImageInput): Promise<typeof HELD_SCORES> {
    const original = await inputBytes(input);
    return await new Promise((resolve) =>
      this.scoreCalls.push({ tag: tagOf(original), finish: () => resolve(HELD_SCORES) })
    );
  }

  /** Resolves once `count` calls have started. */
  async started(count: number, timeoutMs = 5000): Promise<HeldCall[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.calls.length < count) {
      if (Date.now() > deadline) throw new Error(`Only ${this.calls.length} of ${count} jobs started`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 50);
      });
    }
    return this.calls.slice(0, count);
  }

  /** Calls the test has not finished, failed or aborted: their jobs stay running until it does. */
  get holding(): number {
    return this.calls.filter((c) => !c.settled).length;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
