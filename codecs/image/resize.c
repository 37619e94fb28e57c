// Lanczos3 resampling in linear light, the two separable passes of codecs/image/resize.ts in WebAssembly
// SIMD: one f32x4 per pixel (R, G, B, unused), so each tap is one multiply and one add for the three channels.
// The weights, the sRGB tables and the plan are computed in TypeScript (resize.ts); this file only runs the
// passes. No libc: built by scripts/build-resize-wasm.sh (clang 19, wasm32, -msimd128), the .wasm committed.
// One instance serves one call (resize.ts): memory is taken with `alloc` and never given back.
#include <wasm_simd128.h>

typedef unsigned char u8;
typedef unsigned long usize;

extern u8 __heap_base;
static usize top;

// A 16-byte aligned block of `bytes`, growing the memory as needed; 0 when it cannot grow.
__attribute__((export_name("alloc"))) void *alloc(usize bytes) {
  if (!top) top = ((usize)&__heap_base + 15) & ~(usize)15;
  usize start = top, end = start + ((bytes + 15) & ~(usize)15);
  usize have = __builtin_wasm_memory_size(0) * 65536ul;
  if (end > have && __builtin_wasm_memory_grow(0, (end - have + 65535) / 65536) == (usize)-1) return 0;
  top = end;
  return (void *)start;
}

typedef struct {
  const int *first;
  const int *count;
  const float *weights;
  int taps;
} Kernel;

typedef struct {
  const u8 *src;
  int src_width, x0, y0, block, samples_across;
  int out_width, out_height;
  Kernel h, v;
  const float *to_linear; // 256 entries: sRGB byte -> linear light
  const u8 *to_srgb;      // 4097 entries: linear light in 4096 steps -> sRGB byte
  float *line;            // samples_across pixels
  float *ring;            // v.taps rows of out_width pixels
} Job;

// Sample row `y` (block-averaged in linear light), filtered across into its ring row.
static void make_row(const Job *j, int y) {
  float *line = j->line;
  for (int x = 0; x < j->samples_across; x++) wasm_v128_store(line + 4 * x, wasm_f32x4_splat(0));
  for (int dy = 0; dy < j->block; dy++) {
    const u8 *p = j->src + ((usize)(j->y0 + y * j->block + dy) * j->src_width + j->x0) * 4;
    for (int x = 0; x < j->samples_across; x++) {
      v128_t sum = wasm_v128_load(line + 4 * x);
      for (int dx = 0; dx < j->block; dx++, p += 4) {
        sum = wasm_f32x4_add(sum, wasm_f32x4_make(j->to_linear[p[0]], j->to_linear[p[1]], j->to_linear[p[2]], 0));
      }
      wasm_v128_store(line + 4 * x, sum);
    }
  }
  if (j->block > 1) {
    v128_t inv = wasm_f32x4_splat(1.0f / (float)(j->block * j->block));
    for (int x = 0; x < j->samples_across; x++) {
      wasm_v128_store(line + 4 * x, wasm_f32x4_mul(wasm_v128_load(line + 4 * x), inv));
    }
  }
  float *row = j->ring + (usize)(y % j->v.taps) * j->out_width * 4;
  for (int x = 0; x < j->out_width; x++) {
    const float *w = j->h.weights + (usize)x * j->h.taps;
    const float *in = line + 4 * j->h.first[x];
    v128_t acc = wasm_f32x4_splat(0);
    for (int k = 0, n = j->h.count[x]; k < n; k++) {
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_f32x4_splat(w[k]), wasm_v128_load(in + 4 * k)));
    }
    wasm_v128_store(row + 4 * x, acc);
  }
}

__attribute__((export_name("resample"))) void resample(
    const u8 *src, int src_width, int x0, int y0, int block, int samples_across, int out_width, int out_height,
    const int *h_first, const int *h_count, const float *h_weights, int h_taps, const int *v_first,
    const int *v_count, const float *v_weights, int v_taps, const float *to_linear, const u8 *to_srgb,
    float *line, float *ring, u8 *out) {
  const Job j = {src, src_width, x0, y0, block, samples_across, out_width, out_height,
                 {h_first, h_count, h_weights, h_taps}, {v_first, v_count, v_weights, v_taps},
                 to_linear, to_srgb, line, ring};
  const float *rows[64];
  const v128_t zero = wasm_f32x4_splat(0), one = wasm_f32x4_splat(1), steps = wasm_f32x4_splat(4096),
               half = wasm_f32x4_splat(0.5f);
  int made = 0; // the next sample row to make: those below it are in the ring or no longer needed
  for (int y = 0; y < out_height; y++) {
    const int first = v_first[y], n = v_count[y] < 64 ? v_count[y] : 64;
    if (made < first) made = first;
    while (made < first + n) make_row(&j, made++);
    for (int k = 0; k < n; k++) rows[k] = ring + (usize)((first + k) % v_taps) * out_width * 4;
    const float *w = v_weights + (usize)y * v_taps;
    u8 *o = out + (usize)y * out_width * 4;
    for (int x = 0; x < out_width; x++, o += 4) {
      v128_t acc = zero;
      for (int k = 0; k < n; k++) {
        acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_f32x4_splat(w[k]), wasm_v128_load(rows[k] + 4 * x)));
      }
      // Linear light clamped to [0, 1], rounded to one of 4096 steps, then the sRGB byte of that step.
      v128_t step = wasm_f32x4_floor(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_pmin(wasm_f32x4_pmax(acc, zero), one),
                                                                   steps),
                                                    half));
      v128_t index = wasm_i32x4_trunc_sat_f32x4(step);
      o[0] = to_srgb[wasm_i32x4_extract_lane(index, 0)];
      o[1] = to_srgb[wasm_i32x4_extract_lane(index, 1)];
      o[2] = to_srgb[wasm_i32x4_extract_lane(index, 2)];
      o[3] = 255;
    }
  }
}
