/** Helpers for the articles' figures script: shell commands, CPU timing, PPM reading, luma SSIM, statistics. */

export interface Gray {
  width: number;
  height: number;
  /** BT.601 luma (0.299 R + 0.587 G + 0.114 B), 0-255, one float per pixel. */
  luma: Float32Array;
}

const decoder = new TextDecoder();

/** Runs `sh -c cmd`; returns stdout (throws with stderr when the command fails). */
export async function sh(cmd: string): Promise<Uint8Array> {
  const out = await new Deno.Command("sh", {
    args: ["-c", cmd],
    stdout: "piped",
    stderr: "piped",
    env: { LC_ALL: "C" },
  }).output();
  if (!out.success) throw new Error(`failed: ${cmd}\n${decoder.decode(out.stderr).slice(0, 2000)}`);
  return out.stdout;
}

export async function shText(cmd: string): Promise<string> {
  return decoder.decode(await sh(cmd)).trim();
}

/** CPU seconds (user + system, children included) and peak RSS (KB) of a shell script, from GNU time. */
export async function cpu(script: string, work: string): Promise<{ seconds: number; maxRssKb: number }> {
  const file = `${work}/timed.sh`;
  const report = `${work}/time.txt`;
  await Deno.writeTextFile(file, script);
  await sh(`/usr/bin/time -f "%U %S %M" -o ${report} sh ${file}`);
  const [user, system, rss] = (await Deno.readTextFile(report)).trim().split(/\s+/).slice(-3).map(Number) as [
    number,
    number,
    number,
  ];
  return { seconds: user + system, maxRssKb: rss };
}

/** Median CPU seconds of `reps` runs of a script. */
export async function cpuMedian(script: string, work: string, reps: number): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < reps; i++) runs.push((await cpu(script, work)).seconds);
  return median(runs);
}

/** Reads a binary PPM (P6) or PGM (P5) with maxval 255 into luma. */
export function readPnm(bytes: Uint8Array): Gray {
  let pos = 0;
  const token = (): string => {
    for (;;) {
      while (pos < bytes.length && /\s/.test(String.fromCharCode(bytes[pos]!))) pos++;
      if (bytes[pos] === 0x23) {
        while (pos < bytes.length && bytes[pos] !== 0x0a) pos++;
        continue;
      }
      break;
    }
    const start = pos;
    while (pos < bytes.length && !/\s/.test(String.fromCharCode(bytes[pos]!))) pos++;
    return decoder.decode(bytes.subarray(start, pos));
  };
  const magic = token();
  const width = Number(token());
  const height = Number(token());
  const max = Number(token());
  pos++; // the single whitespace before the raster
  if ((magic !== "P6" && magic !== "P5") || max !== 255) throw new Error(`unsupported PNM ${magic} ${max}`);
  const luma = new Float32Array(width * height);
  if (magic === "P5") {
    for (let i = 0; i < luma.length; i++) luma[i] = bytes[pos + i]!;
  } else {
    for (let i = 0, p = pos; i < luma.length; i++, p += 3) {
      luma[i] = 0.299 * bytes[p]! + 0.587 * bytes[p + 1]! + 0.114 * bytes[p + 2]!;
    }
  }
  return { width, height, luma };
}

const KERNEL = (() => {
  const k = new Float32Array(11);
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += k[i] = Math.exp(-((i - 5) ** 2) / (2 * 1.5 ** 2));
  return k.map((v) => v / sum);
})();

/**
 * Mean SSIM (Wang et al. 2004) on luma: 11×11 Gaussian window (σ 1.5), K1 0.01, K2 0.03, no downsampling,
 * windows wholly inside the image. Computed in bands of rows so a 20 MP image needs little memory.
 */
export function ssim(a: Gray, b: Gray): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error("ssim: sizes differ");
  const { width: w, height: h } = a;
  const c1 = (0.01 * 255) ** 2, c2 = (0.03 * 255) ** 2;
  const ow = w - 10;
  const BAND = 256;
  let total = 0, count = 0;
  for (let y0 = 0; y0 < h - 10; y0 += BAND) {
    const rows = Math.min(BAND, h - 10 - y0); // output rows in this band
    const inRows = rows + 10;
    // Horizontal pass of x, y, x², y², xy for the band's input rows.
    const hx = new Float32Array(inRows * ow), hy = new Float32Array(inRows * ow);
    const hxx = new Float32Array(inRows * ow), hyy = new Float32Array(inRows * ow), hxy = new Float32Array(inRows * ow);
    for (let r = 0; r < inRows; r++) {
      const base = (y0 + r) * w;
      for (let x = 0; x < ow; x++) {
        let sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
        for (let i = 0; i < 11; i++) {
          const k = KERNEL[i]!, va = a.luma[base + x + i]!, vb = b.luma[base + x + i]!;
          sx += k * va;
          sy += k * vb;
          sxx += k * va * va;
          syy += k * vb * vb;
          sxy += k * va * vb;
        }
        const o = r * ow + x;
        hx[o] = sx;
        hy[o] = sy;
        hxx[o] = sxx;
        hyy[o] = syy;
        hxy[o] = sxy;
      }
    }
    for (let r = 0; r < rows; r++) {
      for (let x = 0; x < ow; x++) {
        let mx = 0, my = 0, mxx = 0, myy = 0, mxy = 0;
        for (let i = 0; i < 11; i++) {
          const k = KERNEL[i]!, o = (r + i) * ow + x;
          mx += k * hx[o]!;
          my += k * hy[o]!;
          mxx += k * hxx[o]!;
          myy += k * hyy[o]!;
          mxy += k * hxy[o]!;
        }
        const vx = mxx - mx * mx, vy = myy - my * my, cxy = mxy - mx * my;
        total += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
        count++;
      }
    }
  }
  return total / count;
}

export function median(values: number[]): number {
  const s = [...values].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const sum = (values: number[]) => values.reduce((x, y) => x + y, 0);
export const mean = (values: number[]) => sum(values) / values.length;
export const min = (values: number[]) => Math.min(...values);
export const max = (values: number[]) => Math.max(...values);

/**
 * Lowest integer setting in [lo, hi] whose result passes, by bisection (assumes passing is monotonic in the
 * setting; the caller's direction makes "higher setting = better quality"). Returns null when even hi fails.
 */
export async function lowestPassing<T>(
  lo: number,
  hi: number,
  probe: (setting: number) => Promise<{ pass: boolean; value: T }>,
): Promise<{ setting: number; value: T } | null> {
  let best: { setting: number; value: T } | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = await probe(mid);
    if (r.pass) {
      best = { setting: mid, value: r.value };
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return best;
}

/** JPEG metadata bytes: every APPn segment except the JFIF APP0, plus COM segments (marker and length included). */
export function jpegMetadataBytes(bytes: Uint8Array): number {
  let pos = 2, total = 0;
  while (pos + 4 <= bytes.length && bytes[pos] === 0xff) {
    const marker = bytes[pos + 1]!;
    if (marker === 0xda || marker === 0xd9) break;
    const length = (bytes[pos + 2]! << 8) | bytes[pos + 3]!;
    const isJfif = marker === 0xe0 && decoder.decode(bytes.subarray(pos + 4, pos + 8)) === "JFIF";
    if (((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) && !isJfif) total += length + 2;
    pos += length + 2;
  }
  return total;
}
