/** Shared steps and files for the compressor browser tests and the screenshot script. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { encodeJpegPixels } from "../../codecs/jpeg/encode.ts";
import { defaults as mozjpegDefaults } from "../../codecs/jpeg/meta.ts";
import { COOKIE_CONSENT_KEY } from "../../contract/ads.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const fixture = (name: string): Buffer => Buffer.from(Deno.readFileSync(new URL(name, FIXTURES)));

/** `base.jpg` (a q95 photo-like plasma) under another name: q80 makes it smaller. */
export const photo = (name: string): UploadFile => ({ name, mimeType: "image/jpeg", buffer: fixture("base.jpg") });

/**
 * A photo-sized JPEG (noisy gradient, q95) made here, so batches take long
 * enough on the server to be paused. Cached: every call returns the same bytes.
 */
let bigPhoto: Promise<Uint8Array> | null = null;
export function bigPhotoBytes(width = 1600, height = 1200): Promise<Uint8Array> {
  bigPhoto ??= (async () => {
    const data = new Uint8ClampedArray(width * height * 4);
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const n = rand() * 60 - 30;
        data[i] = (x / width) * 200 + n;
        data[i + 1] = (y / height) * 200 + n;
        data[i + 2] = 120 + n;
        data[i + 3] = 255;
      }
    }
    return await encodeJpegPixels({ data, width, height }, { ...mozjpegDefaults, quality: 95 });
  })();
  return bigPhoto;
}

/** Signs a fresh free user up through the API (the page's cookies) and opens the compressor. */
export async function signUpAndOpen(page: Page, username: string): Promise<void> {
  // A free user would otherwise get the cookie banner over the bottom of the page.
  await page.addInitScript((key) => localStorage.setItem(key, "declined"), COOKIE_CONSENT_KEY);
  const res = await page.request.post("/api/register", {
    data: { username, password: "correct horse", firstName: "Test", lastName: "User" },
  });
  if (!res.ok()) throw new Error(`Sign-up failed: ${res.status()} ${await res.text()}`);
  await page.goto("/");
  await page.getByRole("heading", { name: "Processing Queue" }).waitFor();
}

export const fileInput = (page: Page) => page.locator('input[type="file"][aria-label="Choose JPEG images"]');

/** Picks files, which start compressing at once (issue 24 item 3); resolves once the server accepted them. */
export async function upload(page: Page, files: UploadFile[]): Promise<void> {
  await fileInput(page).setInputFiles(files);
  await page.getByText("Upload successful", { exact: true }).waitFor();
}

/** Counts the page's POST /api/compress requests from now on. */
export function countUploads(page: Page): { readonly requests: number } {
  const counter = { requests: 0 };
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/compress") counter.requests++;
  });
  return counter;
}

/** Waits until `count` job cards are completed. */
/** Waits for `count` completed cards whose scores have arrived (a fixed-quality score comes after its result). */
export async function waitForCompleted(page: Page, count: number, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('[data-testid="job-card"][data-status="completed"]:not([data-score-pending])')
        .length >= n,
    count,
    { timeout },
  );
}

/**
 * Drags files the way a browser does: dragenter, dragover, then drop (phase "drop") with a
 * DataTransfer, on the element `testId` names or, without one, on the page body.
 * Resolves to whether the drop was taken by the page (its default, navigating away, prevented).
 */
export function dragFiles(
  page: Page,
  files: { name: string; type: string; size: number }[],
  phase: "drag" | "drop",
  testId?: string,
): Promise<boolean> {
  return page.evaluate(({ files, phase, testId }) => {
    const target = testId ? document.querySelector(`[data-testid="${testId}"]`)! : document.body;
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([new Uint8Array(f.size)], f.name, { type: f.type }));
    const fire = (type: string) =>
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    fire("dragenter");
    fire("dragover");
    return phase === "drop" ? !fire("drop") : true;
  }, { files, phase, testId });
}

/** Opens the full settings panel from the one-line summary. */
export async function openSettings(page: Page): Promise<void> {
  const change = page.getByRole("button", { name: "Change", exact: true });
  const panel = page.getByTestId("settings-panel");
  // Whichever shows first once the saved settings have loaded (counting at once raced that load).
  await change.or(panel).first().waitFor();
  if (await change.isVisible()) await change.click();
  await panel.waitFor();
}

/** Waits for the debounced `PUT /api/settings` after `change` and returns the settings it sent. */
export async function savedAfter(page: Page, change: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/settings") && r.request().method() === "PUT");
  await change();
  const res = await saved;
  assert.equal(res.status(), 200, await res.text());
  return res.request().postDataJSON();
}
