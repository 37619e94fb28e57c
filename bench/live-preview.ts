/**
 * The Live preview's speed in Chromium (issue 24, item 1): against a started server, a photo is uploaded,
 * its Live preview opened, and the Quality slider moved; for each change this times, inside the page, from the
 * input event to (a) the re-encoded 1:1 crop decoded on screen and (b) the full-size "Predicted size" and
 * "Predicted score" shown. Targets: crop ≤ 300 ms, full ≤ 1.5 s for a ~12 MP photo.
 * Part of `deno task bench` (last); alone: `deno run -A bench/live-preview.ts` (needs .corpus/A and Chromium;
 * `deno task build` first).
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { inspectJpeg } from "../codecs/container/inspect.ts";
import { decodeJpegPixels } from "../codecs/jpeg/decode.ts";
import { encodeJpegPixels } from "../codecs/jpeg/encode.ts";
import { defaults as mozjpegDefaults } from "../codecs/jpeg/meta.ts";
import { launchBrowser } from "../tests/e2e/harness.ts";
import { signUpAndOpen, upload, waitForCompleted } from "../tests/e2e/compressor-helpers.ts";
import { startServer } from "../tests/setup/server-process.ts";
import { figure, median } from "./report.ts";

const CORPUS = new URL("../.corpus/A/", import.meta.url);
const QUALITIES = [74, 68, 62, 56, 50, 72];

/** A19 (20.4 MP) cut to 4000×3000 and saved at q92: the ~12 MP photo the targets are set for. */
async function twelveMegapixels(): Promise<Uint8Array> {
  const full = await decodeJpegPixels(await Deno.readFile(new URL("A19-lomiri-Kleiber.jpg", CORPUS)));
  const width = 4000, height = 3000;
  const data = new Uint8ClampedArray(width * height * 4);
  const x0 = (full.width - width) >> 1, y0 = (full.height - height) >> 1;
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * full.width + x0) * 4;
    data.set(full.data.subarray(from, from + width * 4), y * width * 4);
  }
  return await encodeJpegPixels({ data, width, height }, { ...mozjpegDefaults, quality: 92 });
}

interface Timing {
  cropMs: number;
  /** Until "Predicted size" shows the new size (before its score). */
  sizeMs: number;
  fullMs: number;
  /** The full-size lane's own encode and measurement (wall time in the worker). */
  encodeMs: number;
  measureMs: number;
}

/** Moves the panel's Quality slider to `q` and times the crop on screen and the full-size figures. */
function timeChange(page: Page, q: number): Promise<Timing> {
  return page.evaluate(async (quality) => {
    const panel = document.querySelector<HTMLElement>('[data-testid="live-preview"]')!;
    const slider = panel.querySelector<HTMLInputElement>('input[type="range"]')!;
    const cropGen = Number(panel.dataset.cropGen ?? 0);
    const fullGen = Number(panel.dataset.fullGen ?? 0);
    const sizeGen = Number(panel.dataset.sizeGen ?? 0);
    const t0 = performance.now();
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    setter.call(slider, String(quality));
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    const when = (done: () => boolean) =>
      new Promise<void>((resolve) => {
        if (done()) return resolve();
        const observer = new MutationObserver(() => {
          if (done()) {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(panel, { attributes: true, subtree: true, childList: true });
      });
    let cropMs = 0;
    const crop = when(() => Number(panel.dataset.cropGen ?? 0) > cropGen).then(async () => {
      await panel.querySelector<HTMLImageElement>('[data-testid="live-preview-crop"]')!.decode();
      cropMs = performance.now() - t0;
    });
    let sizeMs = 0;
    const size = when(() => Number(panel.dataset.sizeGen ?? 0) > sizeGen).then(() => {
      sizeMs = performance.now() - t0;
    });
    await when(() => Number(panel.dataset.fullGen ?? 0) > fullGen && !panel.hasAttribute("data-full-pending"));
    const fullMs = performance.now() - t0;
    await crop;
    await size;
    return {
      cropMs,
      sizeMs,
      fullMs,
      encodeMs: Number(panel.dataset.encodeMs),
      measureMs: Number(panel.dataset.measureMs),
    };
  }, q);
}

async function benchPhoto(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  const info = inspectJpeg(bytes);
  const mp = (info.width * info.height) / 1e6;
  await upload(page, [{ name, mimeType: "image/jpeg", buffer: Buffer.from(bytes) }]);
  await page.waitForFunction(
    (n) => document.querySelectorAll(`[data-testid="job-card"][data-status="completed"]`).length >= n,
    1,
    { timeout: 300_000 },
  );
  await waitForCompleted(page, 1, 300_000);
  const t0 = Date.now();
  await page.getByRole("button", { name: `Live preview ${name}` }).click();
  await page.waitForFunction(
    () => {
      const el = document.querySelector('[data-testid="live-preview"]');
      return el?.getAttribute("data-full-gen") && !el.hasAttribute("data-full-pending") &&
        el.getAttribute("data-crop-gen");
    },
    undefined,
    { timeout: 120_000 },
  );
  const openMs = Date.now() - t0;
  const tag = name.replace(/\.jpg$/, "");
  figure(`live_preview_open_ms_${tag}`, openMs, "ms");
  await series(page, `${tag}`, `${name} (${info.width}×${info.height}, ${mp.toFixed(1)} MP), MozJPEG`);
  // The same with jpegli, the faster encoder (the crop and the full-size lane both use it).
  await page.getByTestId("live-preview").getByLabel("Encoder").selectOption("jpegli");
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="live-preview"]');
    return el !== null && !el.hasAttribute("data-full-pending");
  });
  await series(page, `${tag}_jpegli`, `${name}, jpegli`);
  // Close it, and delete the job: the next photo gets the only card.
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="job-card"]').length === 0);
}

async function series(page: Page, tag: string, title: string): Promise<void> {
  const timings: Timing[] = [];
  for (const q of QUALITIES) timings.push(await timeChange(page, q));
  const view = await page.getByTestId("live-preview-view").boundingBox();
  console.log(
    `# ${title}: view ${view?.width}×${view?.height}, ` +
      `per change crop ${timings.map((t) => Math.round(t.cropMs)).join(" ")} ms, size ${
        timings.map((t) => Math.round(t.sizeMs)).join(" ")
      } ms, full ${timings.map((t) => Math.round(t.fullMs)).join(" ")} ms (encode ${
        timings.map((t) => Math.round(t.encodeMs)).join(" ")
      }, measure ${timings.map((t) => Math.round(t.measureMs)).join(" ")})`,
  );
  figure(`live_preview_crop_ms_median_${tag}`, Math.round(median(timings.map((t) => t.cropMs))), "ms");
  figure(`live_preview_crop_ms_max_${tag}`, Math.round(Math.max(...timings.map((t) => t.cropMs))), "ms");
  figure(`live_preview_size_ms_median_${tag}`, Math.round(median(timings.map((t) => t.sizeMs))), "ms");
  figure(`live_preview_full_ms_median_${tag}`, Math.round(median(timings.map((t) => t.fullMs))), "ms");
  figure(`live_preview_full_ms_max_${tag}`, Math.round(Math.max(...timings.map((t) => t.fullMs))), "ms");
}

/** The three photos on one server and one page, 1280×900. */
export async function livePreviewBench(): Promise<void> {
  const photos: [string, Uint8Array][] = [
    ["A20-Elephants-8MP.jpg", await Deno.readFile(new URL("A20-mate-Elephants-3840.jpg", CORPUS))],
    ["A19-Kleiber-12MP-crop.jpg", await twelveMegapixels()],
    ["A19-Kleiber-20MP.jpg", await Deno.readFile(new URL("A19-lomiri-Kleiber.jpg", CORPUS))],
  ];
  const server = await startServer({ WORKERS: "1" });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUpAndOpen(page, "bench-live");
    for (const [name, bytes] of photos) await benchPhoto(page, name, bytes);
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.main) await livePreviewBench();
