/**
 * Resize (issue 30, item 2): the box a photo is fitted to, and a Lanczos3 resampler in linear light.
 *
 * Written here rather than taken from @jsquash/resize: its Lanczos3 took 3.6 s to bring a 16 MP photo to
 * 2,560 px in linear light (0.9-1.5 s in gamma space), and a web set resizes four times. Separable passes
 * over precomputed weights, the horizontal one first, in WebAssembly SIMD (./resize.c: 2.8× our TypeScript
 * passes at 2,560 px, 0.27 s for a 12 MP photo; bench/resize.ts prints it against libvips). Linear light
 * keeps fine bright detail (foliage against sky, text) from darkening as gamma-space averaging does.
 */
import type { RgbaImage } from "../jpeg/decode.ts";
import { compiledModuleSync, RESIZE_WASM } from "../wasm.ts";

export type Fit = "inside" | "cover";

/** A resize request: each side optional (null: unbounded), and how a box with both is filled. */
export interface ResizeBox {
  maxWidth: number | null;
  maxHeight: number | null;
  fit: Fit;
}

/** A centred crop of the source (in source pixels) and the size it is resampled to. */
export interface ResizePlan {
  width: number;
  height: number;
  crop: { x: number; y: number; width: number; height: number };
}

/**
 * Where a `width`×`height` image goes in `box`, or null when its pixels stay as they are. `inside`
 * keeps the aspect ratio within the box; `cover` fills the box exactly with a centred crop. Neither
 * enlarges: a source smaller than a `cover` box is cropped to the box's aspect ratio at its own scale.
 */
export function planResize(width: number, height: number, box: ResizeBox): ResizePlan | null {
  const bw = box.maxWidth ?? Infinity;
  const bh = box.maxHeight ?? Infinity;
  if (box.fit === "cover" && Number.isFinite(bw) && Number.isFinite(bh)) {
    // The box itself where the scaled source covers it; else the box's shape at the source's own scale.
    const k = Math.min(1, width / bw, height / bh);
    const outW = Math.max(1, Math.round(bw * k));
    const outH = Math.max(1, Math.round(bh * k));
    if (outW === width && outH === height) return null;
    return { width: outW, height: outH, crop: centredCrop(width, height, outW, outH) };
  }
  const scale = Math.min(1, bw / width, bh / height);
  if (scale >= 1) return null;
  const outW = Math.max(1, Math.round(width * scale));
  const outH = Math.max(1, Math.round(height * scale));
  return { width: outW, height: outH, crop: { x: 0, y: 0, width, height } };
}

/**
 * The plan that makes `width`×`height` out of a source: the centred crop of its aspect ratio (none when it
 * differs by less than a pixel, as an `inside` fit's rounding does). A deferred score rebuilds the resized
 * original from the result's size with it, exactly as the job made it.
 */
export function planTo(source: { width: number; height: number }, width: number, height: number): ResizePlan | null {
  if (source.width === width && source.height === height) return null;
  return { width, height, crop: centredCrop(source.width, source.height, width, height) };
}

/** The centred part of a `width`×`height` source with the shape of an `outW`×`outH` output. */
function centredCrop(width: number, height: number, outW: number, outH: number) {
  const aspect = outW / outH;
  let cw = width, ch = height;
  if (width / height > aspect) cw = height * aspect;
  else ch = width / aspect;
  // Within one output pixel of the whole: the shapes differ by the output's rounding only, so nothing is cut.
  if (width - cw < width / outW) cw = width;
  if (height - ch < height / outH) ch = height;
  return { x: (width - cw) / 2, y: (height - ch) / 2, width: cw, height: ch };
}

// sRGB ↔ linear. Decoding is a 256-entry table; encoding looks up 4,096 steps of linear light, fine enough
// that a round trip of every 8-bit value returns it unchanged (tested). resize.c rounds to the same 4,096 steps.
const TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}
const ENCODE_STEPS = 4096;
const TO_SRGB = new Uint8Array(ENCODE_STEPS + 1);
for (let i = 0; i <= ENCODE_STEPS; i++) {
  const l = i / ENCODE_STEPS;
  const c = l <= 0.0031308 ? l * 12.92 : 1.055 * Math.pow(l, 1 / 2.4) - 0.055;
  TO_SRGB[i] = Math.round(Math.min(1, Math.max(0, c)) * 255);
}

const lanczos3 = (x: number) => {
  if (x === 0) return 1;
  if (x <= -3 || x >= 3) return 0;
  const px = Math.PI * x;
  return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
};

/** Per output sample: the first source index and its normalised weights (widened by the scale when shrinking). */
function weightsFor(outSize: number, start: number, span: number, srcSize: number) {
  const scale = span / outSize;
  const support = 3 * Math.max(1, scale);
  const taps = Math.ceil(support) * 2 + 1;
  const first = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const weights = new Float32Array(outSize * taps);
  for (let o = 0; o < outSize; o++) {
    const centre = start + (o + 0.5) * scale;
    const lo = Math.max(0, Math.floor(centre - support));
    const hi = Math.min(srcSize - 1, Math.ceil(centre + support));
    let total = 0;
    let n = 0;
    for (let i = lo; i <= hi && n < taps; i++, n++) {
      const w = lanczos3((i + 0.5 - centre) / Math.max(1, scale));
      weights[o * taps + n] = w;
      total += w;
    }
    for (let k = 0; k < n; k++) weights[o * taps + k]! /= total;
    first[o] = lo;
    count[o] = n;
  }
  return { first, count, weights, taps };
}

/** ./resize.c's exports (pointers are byte offsets into `memory`; 0 = out of memory). */
interface ResizeExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  resample(...args: number[]): void;
}

/**
 * Resamples per `plan`: the crop of `image` to `plan.width`×`plan.height`, Lanczos3 in linear light. Past
 * a 4× reduction the source is first averaged in s×s blocks (s = ⌊scale / 2⌋, as libvips shrinks before
 * it reduces), so the kernel always spans 2-4 samples of what it reads instead of up to 25. The passes run
 * in WebAssembly SIMD (./resize.c), in an instance of their own that goes with the call: the source's copy
 * and the output are its memory's only large blocks, and the horizontal pass keeps only the rows the
 * vertical kernel spans.
 */
export function resample(image: RgbaImage, plan: ResizePlan): RgbaImage {
  const { width: outW, height: outH, crop } = plan;
  const srcW = image.width;
  const s = Math.max(1, Math.floor(Math.min(crop.width / outW, crop.height / outH) / 2));
  // The block-averaged source: columns from x0, rows from y0, s source pixels per sample.
  const x0 = Math.floor(crop.x), y0 = Math.floor(crop.y);
  const sw = Math.max(1, Math.floor((Math.min(srcW, Math.ceil(crop.x + crop.width)) - x0) / s));
  const sh = Math.max(1, Math.floor((Math.min(image.height, Math.ceil(crop.y + crop.height)) - y0) / s));
  const h = weightsFor(outW, (crop.x - x0) / s, crop.width / s, sw);
  const v = weightsFor(outH, (crop.y - y0) / s, crop.height / s, sh);

  const m = new WebAssembly.Instance(compiledModuleSync(RESIZE_WASM), {}).exports as unknown as ResizeExports;
  // Every block first: growing the memory detaches the views made before.
  const block = (bytes: number) => {
    const at = m.alloc(bytes);
    if (at === 0) throw new RangeError("Resizing ran out of memory");
    return at;
  };
  const src = block(image.data.length);
  const kernel = (k: ReturnType<typeof weightsFor>) => ({
    first: block(k.first.byteLength),
    count: block(k.count.byteLength),
    weights: block(k.weights.byteLength),
  });
  const hAt = kernel(h), vAt = kernel(v);
  const toLinear = block(TO_LINEAR.byteLength), toSrgb = block(TO_SRGB.byteLength);
  const line = block(sw * 16), ring = block(v.taps * outW * 16), out = block(outW * outH * 4);
  const bytes = new Uint8Array(m.memory.buffer);
  bytes.set(image.data, src);
  for (const [k, at] of [[h, hAt], [v, vAt]] as const) {
    bytes.set(new Uint8Array(k.first.buffer), at.first);
    bytes.set(new Uint8Array(k.count.buffer), at.count);
    bytes.set(new Uint8Array(k.weights.buffer), at.weights);
  }
  bytes.set(new Uint8Array(TO_LINEAR.buffer), toLinear);
  bytes.set(TO_SRGB, toSrgb);
  m.resample(
    src,
    srcW,
    x0,
    y0,
    s,
    sw,
    outW,
    outH,
    hAt.first,
    hAt.count,
    hAt.weights,
    h.taps,
    vAt.first,
    vAt.count,
    vAt.weights,
    v.taps,
    toLinear,
    toSrgb,
    line,
    ring,
    out,
  );
  const data = new Uint8ClampedArray(outW * outH * 4);
  data.set(new Uint8Array(m.memory.buffer, out, data.length));
  return { data, width: outW, height: outH };
}
