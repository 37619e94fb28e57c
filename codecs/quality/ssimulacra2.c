/*
 * SSIMULACRA 2.1's hot path in WebAssembly SIMD (f32x4): the XYB pyramid and
 * the error maps. Ours, freestanding (no libc); built by
 * scripts/build-metric-wasm.sh into ssimulacra2.wasm, driven by ./ssimulacra2.ts
 * (which holds the weights, the plan of which maps to compute and the final
 * mapping; see its header comment for the algorithm).
 *
 * Figures (the XYB matrix and bias, the blur's sigma and recursion, SSIM's C2)
 * are those of the reference (github.com/cloudinary/ssimulacra2, BSD-3-Clause,
 * Copyright (c) Jon Sneyers, Cloudinary) and of libjxl's gauss_blur and opsin
 * parameters (BSD-3-Clause, Copyright (c) the JPEG XL Project Authors); the
 * code is ours.
 *
 * Float32 everywhere, as the reference. The reference's float32 rounding in
 * its blur is not cosmetic (its recursion's poles lie on the unit circle, so
 * rounding errors are never damped and leave a noise its scores include): we
 * reproduce its arithmetic per output, fused multiply-adds included. WASM
 * SIMD has none, so fma4 computes them in double (a product of two floats is
 * exact there) and rounds once: without that, the extra roundings doubled the
 * noise and cost up to 3.5 points at high quality. The horizontal pass blurs four rows at once, lanes = rows,
 * each lane computing four outputs per step from the two previous ones as the
 * reference does (lanes = consecutive outputs there); the vertical pass runs
 * across columns, four per vector.
 */
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(name)))

typedef v128_t vec;

/* ---------------------------------------------------------------- memory */

/*
 * A first-fit free list, sorted by address, coalescing on free; the top block
 * is given back to the break. WASM memory never shrinks, but freed memory is
 * reused, so a worker's heap stays at its largest job's need.
 */
extern unsigned char __heap_base;

typedef struct Block {
  size_t size; /* including this header */
  struct Block *next;
} Block;

#define HEADER 16
#define ALIGN 16
#define PAGE 65536

static Block *free_list;
static uintptr_t brk;

static int reserve(uintptr_t end) {
  uintptr_t have = __builtin_wasm_memory_size(0) * PAGE;
  if (end <= have) return 1;
  size_t pages = (end - have + PAGE - 1) / PAGE;
  return __builtin_wasm_memory_grow(0, pages) != (size_t)-1;
}

EXPORT("alloc") void *metric_alloc(size_t bytes) {
  size_t size = (bytes + HEADER + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  if (size < bytes) return 0;
  Block **link = &free_list;
  for (Block *b = free_list; b; link = &b->next, b = b->next) {
    if (b->size < size) continue;
    if (b->size - size >= 4 * HEADER) {
      /* Hand out the block's end; its start stays in the list. */
      b->size -= size;
      Block *out = (Block *)((uint8_t *)b + b->size);
      out->size = size;
      return (uint8_t *)out + HEADER;
    }
    *link = b->next;
    return (uint8_t *)b + HEADER;
  }
  if (!brk) brk = ((uintptr_t)&__heap_base + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1);
  uintptr_t at = brk;
  if (at + size < at || !reserve(at + size)) return 0;
  brk = at + size;
  ((Block *)at)->size = size;
  return (uint8_t *)at + HEADER;
}

EXPORT("free") void metric_free(void *pointer) {
  if (!pointer) return;
  Block *b = (Block *)((uint8_t *)pointer - HEADER);
  Block *prev = 0, **link = &free_list;
  while (*link && *link < b) {
    prev = *link;
    link = &(*link)->next;
  }
  b->next = *link;
  *link = b;
  if (b->next && (uint8_t *)b + b->size == (uint8_t *)b->next) {
    b->size += b->next->size;
    b->next = b->next->next;
  }
  if (prev && (uint8_t *)prev + prev->size == (uint8_t *)b) {
    prev->size += b->size;
    prev->next = b->next;
    b = prev;
  }
  if ((uintptr_t)b + b->size == brk && !b->next) {
    brk = (uintptr_t)b;
    /* b is the last block of the sorted list: unlink it. */
    link = &free_list;
    while (*link != b) link = &(*link)->next;
    *link = 0;
  }
}

/* Bytes below the break and not on the free list (for tests: nothing may leak). */
EXPORT("allocated_bytes") size_t metric_allocated_bytes(void) {
  if (!brk) return 0;
  size_t used = brk - (((uintptr_t)&__heap_base + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
  for (Block *b = free_list; b; b = b->next) used -= b->size;
  return used;
}

static void zero_floats(float *p, size_t count) {
  for (size_t i = 0; i < count; i++) p[i] = 0.0f;
}

/* ---------------------------------------------------------------- colour */

/* sRGB byte → linear light; written by the host at instantiation (exact sRGB transfer function). */
static float linear_from_byte[256];

EXPORT("linear_table") float *metric_linear_table(void) { return linear_from_byte; }

/* libjxl's opsin absorbance matrix and bias (rows L, M, S of linear R, G, B). */
#define M00 0.3f
#define M01 0.622f
#define M02 0.078f
#define M10 0.23f
#define M11 0.692f
#define M12 0.078f
#define M20 0.243422689245478190f
#define M21 0.204767444244968210f
#define M22 0.551809866509553600f
#define BIAS 0.0037930732552754493f

/*
 * Cube root of positive values: an exponent-thirds bit trick (within 4 %),
 * then three Newton steps y ← (2y + x/y²)/3 (about 1 ulp).
 */
static vec cbrt4(vec x) {
  vec bits = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(x), wasm_f32x4_splat(1.0f / 3.0f)));
  vec y = wasm_i32x4_add(bits, wasm_i32x4_splat(709958130));
  const vec third = wasm_f32x4_splat(1.0f / 3.0f);
  for (int i = 0; i < 3; i++) {
    vec y2 = wasm_f32x4_mul(y, y);
    y = wasm_f32x4_mul(wasm_f32x4_add(wasm_f32x4_add(y, y), wasm_f32x4_div(x, y2)), third);
  }
  return y;
}

static float cbrt_bias;

/* Positive XYB of four linear pixels into the planes asked for (null: not needed). */
static inline void xyb4(vec r, vec g, vec b, float *ox, float *oy, float *ob) {
  const vec bias = wasm_f32x4_splat(BIAS), cb = wasm_f32x4_splat(cbrt_bias);
#define MIX(a, b_, c) \
  wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(a), r), \
                                               wasm_f32x4_mul(wasm_f32x4_splat(b_), g)), \
                                wasm_f32x4_mul(wasm_f32x4_splat(c), b)), \
                 bias)
  vec l = wasm_f32x4_sub(cbrt4(MIX(M00, M01, M02)), cb);
  vec m = wasm_f32x4_sub(cbrt4(MIX(M10, M11, M12)), cb);
  vec y = wasm_f32x4_mul(wasm_f32x4_splat(0.5f), wasm_f32x4_add(l, m));
  if (ox) {
    wasm_v128_store(ox, wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(7.0f), wasm_f32x4_sub(l, m)),
                                       wasm_f32x4_splat(0.42f)));
  }
  if (oy) wasm_v128_store(oy, wasm_f32x4_add(y, wasm_f32x4_splat(0.01f)));
  if (ob) {
    vec s = wasm_f32x4_sub(cbrt4(MIX(M20, M21, M22)), cb);
    wasm_v128_store(ob, wasm_f32x4_add(wasm_f32x4_sub(s, y), wasm_f32x4_splat(0.55f)));
  }
#undef MIX
}

/* ---------------------------------------------------------------- pyramid */

#define NUM_SCALES 6
#define RADIUS 5

static inline size_t stride_of(int width) { return ((size_t)width + 3) & ~(size_t)3; }

/* Rows of `stride` floats; the columns past the width are zero (they then add nothing to any map). */
typedef struct {
  int32_t width, height, scales, pad;
  float *planes[NUM_SCALES][3];
  int32_t widths[NUM_SCALES], heights[NUM_SCALES];
} Pyramid;

typedef struct {
  float *r, *g, *b;
  int width, height;
} Linear;

static void free_linear(Linear *l) {
  metric_free(l->r);
  metric_free(l->g);
  metric_free(l->b);
  l->r = l->g = l->b = 0;
}

static int alloc_linear(Linear *l, int width, int height) {
  size_t n = stride_of(width) * (size_t)height;
  l->width = width;
  l->height = height;
  l->r = metric_alloc(n * 4);
  l->g = metric_alloc(n * 4);
  l->b = metric_alloc(n * 4);
  if (l->r && l->g && l->b) return 1;
  free_linear(l);
  return 0;
}

/* 2×2 means in linear light; an odd last row or column is averaged with itself (the reference clamps). */
static int halve_rgba(Linear *out, const uint8_t *rgba, int width, int height) {
  int ow = (width + 1) >> 1, oh = (height + 1) >> 1;
  if (!alloc_linear(out, ow, oh)) return 0;
  size_t os = stride_of(ow);
  for (int oy = 0; oy < oh; oy++) {
    const uint8_t *row0 = rgba + (size_t)(2 * oy) * width * 4;
    const uint8_t *row1 = rgba + (size_t)(2 * oy + 1 < height ? 2 * oy + 1 : height - 1) * width * 4;
    float *r = out->r + oy * os, *g = out->g + oy * os, *b = out->b + oy * os;
    for (int ox = 0; ox < ow; ox++) {
      int x0 = 8 * ox, x1 = (2 * ox + 1 < width ? 2 * ox + 1 : width - 1) * 4;
      const float *lin = linear_from_byte;
      r[ox] = 0.25f * (lin[row0[x0]] + lin[row0[x1]] + lin[row1[x0]] + lin[row1[x1]]);
      g[ox] = 0.25f * (lin[row0[x0 + 1]] + lin[row0[x1 + 1]] + lin[row1[x0 + 1]] + lin[row1[x1 + 1]]);
      b[ox] = 0.25f * (lin[row0[x0 + 2]] + lin[row0[x1 + 2]] + lin[row1[x0 + 2]] + lin[row1[x1 + 2]]);
    }
  }
  return 1;
}

static void halve_plane(float *out, const float *src, int width, int height) {
  int ow = (width + 1) >> 1, oh = (height + 1) >> 1;
  size_t is = stride_of(width), os = stride_of(ow);
  for (int oy = 0; oy < oh; oy++) {
    const float *row0 = src + (size_t)(2 * oy) * is;
    const float *row1 = src + (size_t)(2 * oy + 1 < height ? 2 * oy + 1 : height - 1) * is;
    float *o = out + oy * os;
    for (int ox = 0; ox < ow; ox++) {
      int x0 = 2 * ox, x1 = x0 + 1 < width ? x0 + 1 : width - 1;
      o[ox] = 0.25f * (row0[x0] + row0[x1] + row1[x0] + row1[x1]);
    }
  }
}

static int halve_linear(Linear *out, const Linear *src) {
  if (!alloc_linear(out, (src->width + 1) >> 1, (src->height + 1) >> 1)) return 0;
  halve_plane(out->r, src->r, src->width, src->height);
  halve_plane(out->g, src->g, src->width, src->height);
  halve_plane(out->b, src->b, src->width, src->height);
  return 1;
}

static void zero_pad_columns(float *plane, int width, int height) {
  size_t s = stride_of(width);
  if (!plane || s == (size_t)width) return;
  for (int y = 0; y < height; y++) zero_floats(plane + y * s + width, s - width);
}

EXPORT("pyramid_free") void metric_pyramid_free(Pyramid *p) {
  if (!p) return;
  for (int s = 0; s < NUM_SCALES; s++) {
    for (int c = 0; c < 3; c++) metric_free(p->planes[s][c]);
  }
  metric_free(p);
}

/*
 * The positive-XYB planes of an 8-bit RGBA image at up to six scales; `plan`
 * (18 bytes, scale·3 + channel) is 0 where a plane is not needed. Null when
 * memory runs out.
 */
EXPORT("pyramid") Pyramid *metric_pyramid(const uint8_t *rgba, int width, int height, const uint8_t *plan) {
  if (cbrt_bias == 0.0f) {
    float b[4];
    wasm_v128_store(b, cbrt4(wasm_f32x4_splat(BIAS)));
    cbrt_bias = b[0];
  }
  Pyramid *p = metric_alloc(sizeof(Pyramid));
  if (!p) return 0;
  uint8_t *zero = (uint8_t *)p;
  for (size_t i = 0; i < sizeof(Pyramid); i++) zero[i] = 0;
  p->width = width;
  p->height = height;
  Linear lin = {0}, next = {0};
  int w = width, h = height;
  for (int scale = 0; scale < NUM_SCALES; scale++) {
    /* As the reference: a scale is measured while the previous one was at least 8×8. */
    if (w < 8 || h < 8) break;
    if (scale > 0) {
      if (!(lin.r ? halve_linear(&next, &lin) : halve_rgba(&next, rgba, width, height))) goto fail;
      free_linear(&lin);
      lin = next;
      w = lin.width;
      h = lin.height;
    }
    size_t s = stride_of(w), n = s * (size_t)h;
    float *out[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++) {
      if (!plan[scale * 3 + c]) continue;
      out[c] = p->planes[scale][c] = metric_alloc(n * 4);
      if (!out[c]) goto fail;
    }
    if (lin.r) {
      for (size_t i = 0; i < n; i += 4) {
        xyb4(wasm_v128_load(lin.r + i), wasm_v128_load(lin.g + i), wasm_v128_load(lin.b + i),
             out[0] ? out[0] + i : 0, out[1] ? out[1] + i : 0, out[2] ? out[2] + i : 0);
      }
    } else {
      for (int y = 0; y < h; y++) {
        const uint8_t *row = rgba + (size_t)y * w * 4;
        size_t at = (size_t)y * s;
        for (int x = 0; x < w; x += 4) {
          float r[4], g[4], b[4];
          for (int k = 0; k < 4; k++) {
            int xx = x + k < w ? x + k : w - 1;
            r[k] = linear_from_byte[row[4 * xx]];
            g[k] = linear_from_byte[row[4 * xx + 1]];
            b[k] = linear_from_byte[row[4 * xx + 2]];
          }
          xyb4(wasm_v128_load(r), wasm_v128_load(g), wasm_v128_load(b), out[0] ? out[0] + at + x : 0,
               out[1] ? out[1] + at + x : 0, out[2] ? out[2] + at + x : 0);
        }
      }
    }
    for (int c = 0; c < 3; c++) zero_pad_columns(out[c], w, h);
    p->widths[scale] = w;
    p->heights[scale] = h;
    p->scales = scale + 1;
  }
  free_linear(&lin);
  return p;
fail:
  free_linear(&lin);
  metric_pyramid_free(p);
  return 0;
}

/* ---------------------------------------------------------------- blur */

/*
 * libjxl's recursive Gaussian for sigma 1.5 (N = 5): three second-order
 * filters k = 1, 3, 5, y[n] = n2·(in[n-N-1] + in[n+N-1]) − d1·y[n-1] − y[n-2],
 * summed. The coefficients follow Charalampidis 2016 (as libjxl derives them),
 * computed in double and rounded to float32; IN, PREV and PREV2 expand the
 * recursion over four steps (output j of a step from the inputs 0..j and the
 * two previous outputs), as libjxl's horizontal pass does.
 */
static const float N2[3] = {0.0552952364f, -0.0588366874f, 0.0129558193f};
static const float D1[3] = {-1.90211308f, -1.17557049f, -1.22464685e-16f};
static const float IN[3][4] = {
  {0.0552952364f, 0.105177790f, 0.144764811f, 0.170181230f},
  {-0.0588366874f, -0.0691666752f, -0.0224736147f, 0.0427473560f},
  {0.0129558193f, 1.58663023e-18f, -0.0129558193f, -3.17326046e-18f},
};
static const float PREV[3][4] = {
  {1.90211308f, 2.61803389f, 3.07768345f, 3.23606801f},
  {1.17557049f, 0.381966025f, -0.726542532f, -1.23606801f},
  {1.22464685e-16f, -1.00000000f, -2.44929371e-16f, 1.00000000f},
};
static const float PREV2[3][4] = {
  {-1.00000000f, -1.90211308f, -2.61803389f, -3.07768345f},
  {-1.00000000f, -1.17557049f, -0.381966025f, 0.726542532f},
  {-1.00000000f, -1.22464685e-16f, 1.00000000f, 2.44929371e-16f},
};

#ifdef __wasm_relaxed_simd__
/* a·b + c rounded once, as the reference's fused multiply-add: relaxed SIMD's madd is fused wherever the CPU
 * has FMA (x86-64 with FMA3, every 64-bit ARM), which V8 then uses (see codecs/README.md). */
static inline vec fma4(vec a, vec b, vec c) { return wasm_f32x4_relaxed_madd(a, b, c); }
#else
/* a·b + c rounded once to float32, as a fused multiply-add (exact product and sum in double). */
static inline vec fma4(vec a, vec b, vec c) {
  vec lo = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(a), wasm_f64x2_promote_low_f32x4(b)),
                          wasm_f64x2_promote_low_f32x4(c));
  vec ah = wasm_i32x4_shuffle(a, a, 2, 3, 2, 3), bh = wasm_i32x4_shuffle(b, b, 2, 3, 2, 3);
  vec ch = wasm_i32x4_shuffle(c, c, 2, 3, 2, 3);
  vec hi = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(ah), wasm_f64x2_promote_low_f32x4(bh)),
                          wasm_f64x2_promote_low_f32x4(ch));
  return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
}
#endif

/* 1 when fma4 rounds once (a fused multiply-add): (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 exactly, which a
 * float32 product rounds away. The host uses the relaxed build only where this holds (ssimulacra2.ts). */
EXPORT("fma_is_fused") int metric_fma_is_fused(float x) {
  vec a = wasm_f32x4_splat(x);
  vec r = fma4(a, a, wasm_f32x4_splat(-(1.0f + 1.0f / 2048)));
  return wasm_f32x4_extract_lane(r, 0) == 1.0f / 16777216;
}

#define ADD wasm_f32x4_add
#define SUB wasm_f32x4_sub
#define MUL wasm_f32x4_mul
#define SPLAT wasm_f32x4_splat

/* Zeros on both sides of an interleaved row: reads run from 2N before it to N + 3 after it. */
#define PAD_LEFT (2 * RADIUS)
#define PAD_RIGHT (RADIUS + 4)

/*
 * Horizontal pass over four rows at once: `in` holds width vectors (lanes =
 * rows, column x at in[x], zeros around), `out` receives width vectors. Each
 * lane follows libjxl's arithmetic: one output per step at the left edge up
 * to N + 1 rounded up to 4, four per step inside, one per step at the right.
 */
static void blur_rows4(const vec *in, vec *out, int width) {
  const int big = RADIUS;
  vec y[3], z[3];
  for (int k = 0; k < 3; k++) y[k] = z[k] = wasm_f32x4_splat(0.0f);
  int n = 1 - big;
  int first_aligned = (big + 4) & ~3;
  if (first_aligned > width) first_aligned = width;
  for (; n < first_aligned; n++) {
    vec s = ADD(in[n - big - 1], in[n + big - 1]);
    vec o[3];
    for (int k = 0; k < 3; k++) {
      o[k] = fma4(SPLAT(PREV[k][0]), y[k], fma4(s, SPLAT(IN[k][0]), wasm_f32x4_neg(z[k])));
      z[k] = y[k];
      y[k] = o[k];
    }
    if (n >= 0) out[n] = ADD(o[0], ADD(o[1], o[2]));
  }
  for (; n < width - big - 2; n += 4) {
    const vec *a = in + n - big - 1, *b = in + n + big - 1;
    vec s0 = ADD(a[0], b[0]), s1 = ADD(a[1], b[1]), s2 = ADD(a[2], b[2]), s3 = ADD(a[3], b[3]);
    vec o0[3], o1[3], o2[3], o3[3];
    for (int k = 0; k < 2; k++) {
      vec i0 = SPLAT(IN[k][0]), i1 = SPLAT(IN[k][1]), i2 = SPLAT(IN[k][2]), i3 = SPLAT(IN[k][3]);
      vec mz = wasm_f32x4_neg(z[k]);
      o0[k] = fma4(SPLAT(PREV[k][0]), y[k], fma4(s0, i0, mz));
      o1[k] = fma4(SPLAT(PREV[k][1]), y[k], fma4(SPLAT(PREV2[k][1]), z[k], fma4(i0, s1, MUL(s0, i1))));
      o2[k] = fma4(SPLAT(PREV[k][2]), y[k], fma4(SPLAT(PREV2[k][2]), z[k], fma4(i0, s2, fma4(i1, s1, MUL(s0, i2)))));
      o3[k] = fma4(SPLAT(PREV[k][3]), y[k],
                   fma4(SPLAT(PREV2[k][3]), z[k], fma4(i0, s3, fma4(i1, s2, fma4(i2, s1, MUL(s0, i3))))));
      z[k] = o2[k];
      y[k] = o3[k];
    }
    {
      /* Filter 5: its coefficients of order 1e-16 (cos(5π/2) in float) leave every fused multiply-add
         they enter unchanged but for values below 1e-16, so those are dropped; ±1 ones are exact. */
      vec i0 = SPLAT(IN[2][0]), i2 = SPLAT(IN[2][2]);
      o0[2] = fma4(s0, i0, wasm_f32x4_neg(z[2]));
      o1[2] = SUB(MUL(i0, s1), y[2]);
      o2[2] = ADD(z[2], fma4(i0, s2, MUL(s0, i2)));
      o3[2] = ADD(y[2], fma4(i0, s3, MUL(i2, s1)));
      z[2] = o2[2];
      y[2] = o3[2];
    }
    out[n] = ADD(o0[0], ADD(o0[1], o0[2]));
    out[n + 1] = ADD(o1[0], ADD(o1[1], o1[2]));
    out[n + 2] = ADD(o2[0], ADD(o2[1], o2[2]));
    out[n + 3] = ADD(o3[0], ADD(o3[1], o3[2]));
  }
  for (; n < width; n++) {
    vec s = ADD(in[n - big - 1], in[n + big - 1]);
    vec o[3];
    for (int k = 0; k < 3; k++) {
      o[k] = fma4(SPLAT(PREV[k][0]), y[k], fma4(s, SPLAT(IN[k][0]), wasm_f32x4_neg(z[k])));
      z[k] = y[k];
      y[k] = o[k];
    }
    out[n] = ADD(o[0], ADD(o[1], o[2]));
  }
}

/* Four rows (any of them null: zeros) into one interleaved row, lanes = rows. */
static void interleave(vec *out, const float *r0, const float *r1, const float *r2, const float *r3, size_t stride) {
  static const float zeros[4] = {0, 0, 0, 0};
  for (size_t x = 0; x < stride; x += 4) {
    vec a = r0 ? wasm_v128_load(r0 + x) : wasm_v128_load(zeros);
    vec b = r1 ? wasm_v128_load(r1 + x) : wasm_v128_load(zeros);
    vec c = r2 ? wasm_v128_load(r2 + x) : wasm_v128_load(zeros);
    vec d = r3 ? wasm_v128_load(r3 + x) : wasm_v128_load(zeros);
    vec ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
    vec cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
    out[x] = wasm_i32x4_shuffle(ab_lo, cd_lo, 0, 1, 4, 5);
    out[x + 1] = wasm_i32x4_shuffle(ab_lo, cd_lo, 2, 3, 6, 7);
    out[x + 2] = wasm_i32x4_shuffle(ab_hi, cd_hi, 0, 1, 4, 5);
    out[x + 3] = wasm_i32x4_shuffle(ab_hi, cd_hi, 2, 3, 6, 7);
  }
}

/* The reverse, for `width` columns (the columns past it are left as they are). */
static void deinterleave(float *r0, float *r1, float *r2, float *r3, const vec *in, int width) {
  int x = 0;
  for (; x + 4 <= width; x += 4) {
    vec a = in[x], b = in[x + 1], c = in[x + 2], d = in[x + 3];
    vec ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
    vec cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
    wasm_v128_store(r0 + x, wasm_i32x4_shuffle(ab_lo, cd_lo, 0, 1, 4, 5));
    wasm_v128_store(r1 + x, wasm_i32x4_shuffle(ab_lo, cd_lo, 2, 3, 6, 7));
    wasm_v128_store(r2 + x, wasm_i32x4_shuffle(ab_hi, cd_hi, 0, 1, 4, 5));
    wasm_v128_store(r3 + x, wasm_i32x4_shuffle(ab_hi, cd_hi, 2, 3, 6, 7));
  }
  for (; x < width; x++) {
    float lanes[4];
    wasm_v128_store(lanes, in[x]);
    r0[x] = lanes[0];
    r1[x] = lanes[1];
    r2[x] = lanes[2];
    r3[x] = lanes[3];
  }
}

/* ---------------------------------------------------------------- maps */

#define MAX_QUANTITIES 5
#define RING_ROWS 16 /* ≥ 2N + 4: the rows a vertical step reads plus the four fed ahead */
#define C2 0.0009f

typedef struct {
  float *ring[MAX_QUANTITIES]; /* RING_ROWS rows + one zero row */
  float *state[MAX_QUANTITIES][2][3]; /* per quantity: [y(n-1) or y(n-2)][filter k] rows */
  vec *inter[MAX_QUANTITIES]; /* interleaved rows to blur, with their zero pads */
  vec *blurred; /* one interleaved blurred row */
} Scratch;

static void free_scratch(Scratch *s) {
  for (int q = 0; q < MAX_QUANTITIES; q++) {
    metric_free(s->ring[q]);
    metric_free(s->state[q][0][0]);
    metric_free(s->inter[q] ? s->inter[q] - PAD_LEFT : 0);
  }
  metric_free(s->blurred);
}

static int alloc_scratch(Scratch *s, int width) {
  size_t stride = stride_of(width);
  for (int q = 0; q < MAX_QUANTITIES; q++) {
    s->ring[q] = metric_alloc((RING_ROWS + 1) * stride * 4);
    float *st = s->state[q][0][0] = metric_alloc(6 * stride * 4);
    vec *in = metric_alloc((PAD_LEFT + stride + PAD_RIGHT) * sizeof(vec));
    if (!s->ring[q] || !st || !in) {
      metric_free(in);
      return 0;
    }
    s->inter[q] = in + PAD_LEFT;
    for (int j = 0; j < 2; j++) {
      for (int k = 0; k < 3; k++) s->state[q][j][k] = st + (3 * j + k) * stride;
    }
  }
  s->blurred = metric_alloc(stride * sizeof(vec));
  return s->blurred != 0;
}

/*
 * The three maps of one channel at one scale, pooled into out: [ssim mean,
 * ssim 4-norm, artifact mean, artifact 4-norm, detail-loss mean, detail-loss
 * 4-norm]. Streams: rows of mu1, mu2 (and with SSIM of blur(p1²), blur(p2²),
 * blur(p1·p2)) are blurred horizontally four at a time into a ring, and the
 * vertical recursion turns them into output row n = row − N + 1, pooled at once.
 */
static void channel_maps(Scratch *s, const float *p1, const float *p2, int width, int height, int with_ssim,
                         double *out) {
  const int big = RADIUS;
  const int quantities = with_ssim ? 5 : 2;
  const size_t stride = stride_of(width);
  for (int q = 0; q < quantities; q++) {
    zero_floats(s->ring[q], (RING_ROWS + 1) * stride);
    for (int j = 0; j < 2; j++) {
      for (int k = 0; k < 3; k++) zero_floats(s->state[q][j][k], stride);
    }
    vec *in = s->inter[q];
    for (int i = -PAD_LEFT; i < 0; i++) in[i] = wasm_f32x4_splat(0.0f);
    for (size_t i = stride; i < stride + PAD_RIGHT; i++) in[i] = wasm_f32x4_splat(0.0f);
  }
  double sum[6] = {0, 0, 0, 0, 0, 0};
  int n = 1 - big; /* next output row */
  for (int feed = 0; feed < height; feed += 4) {
    const float *r1[4], *r2[4];
    for (int j = 0; j < 4; j++) {
      int row = feed + j;
      r1[j] = row < height ? p1 + (size_t)row * stride : 0;
      r2[j] = row < height ? p2 + (size_t)row * stride : 0;
    }
    interleave(s->inter[0], r1[0], r1[1], r1[2], r1[3], stride);
    interleave(s->inter[1], r2[0], r2[1], r2[2], r2[3], stride);
    if (with_ssim) {
      vec *a = s->inter[0], *b = s->inter[1];
      for (size_t x = 0; x < stride; x++) {
        s->inter[2][x] = MUL(a[x], a[x]);
        s->inter[3][x] = MUL(b[x], b[x]);
        s->inter[4][x] = MUL(a[x], b[x]);
      }
    }
    for (int q = 0; q < quantities; q++) {
      blur_rows4(s->inter[q], s->blurred, width);
      float *rows[4];
      for (int j = 0; j < 4; j++) {
        /* Rows past the image (zeros) land in slots no vertical step reads: it reads the zero row instead. */
        rows[j] = s->ring[q] + ((feed + j) % RING_ROWS) * stride;
      }
      deinterleave(rows[0], rows[1], rows[2], rows[3], s->blurred, width);
    }
    int last = feed + 3 < height ? feed + 3 : height - 1;
    int until = last == height - 1 ? height - 1 : last - big + 1;
    while (n <= until) {
      /* Up to four output rows per sweep across the columns: each column's recursion state stays in registers
         for them (loaded and stored once, not per row), and each row pools into its own sums in column order,
         so every output and sum is computed exactly as one row at a time would. */
      int rows = until - n + 1 < 4 ? until - n + 1 : 4;
      const float *tops[4][MAX_QUANTITIES], *bottoms[4][MAX_QUANTITIES], *row1[4], *row2[4];
      for (int r = 0; r < rows; r++) {
        int top = n + r - big - 1, bottom = n + r + big - 1;
        for (int q = 0; q < quantities; q++) {
          float *zero_row = s->ring[q] + RING_ROWS * stride;
          tops[r][q] = top >= 0 ? s->ring[q] + (top % RING_ROWS) * stride : zero_row;
          bottoms[r][q] = bottom < height ? s->ring[q] + (bottom % RING_ROWS) * stride : zero_row;
        }
        row1[r] = n + r >= 0 ? p1 + (size_t)(n + r) * stride : 0;
        row2[r] = n + r >= 0 ? p2 + (size_t)(n + r) * stride : 0;
      }
      vec pool[4][6];
      for (int r = 0; r < 4; r++) {
        for (int i = 0; i < 6; i++) pool[r][i] = wasm_f32x4_splat(0.0f);
      }
      for (size_t x = 0; x < stride; x += 4) {
        vec mu[4][MAX_QUANTITIES];
        for (int q = 0; q < quantities; q++) {
          vec y[3], z[3];
          for (int k = 0; k < 3; k++) {
            y[k] = wasm_v128_load(s->state[q][0][k] + x);
            z[k] = wasm_v128_load(s->state[q][1][k] + x);
          }
          for (int r = 0; r < rows; r++) {
            vec sv = ADD(wasm_v128_load(tops[r][q] + x), wasm_v128_load(bottoms[r][q] + x));
            vec o[3];
            for (int k = 0; k < 3; k++) {
              /* Filter 5's d1 is of order 1e-16: −d1·y − z is −z. */
              vec t = k == 2 ? wasm_f32x4_neg(z[k]) : fma4(SPLAT(-D1[k]), y[k], wasm_f32x4_neg(z[k]));
              o[k] = fma4(SPLAT(N2[k]), sv, t);
              z[k] = y[k];
              y[k] = o[k];
            }
            mu[r][q] = ADD(o[0], ADD(o[1], o[2]));
          }
          for (int k = 0; k < 3; k++) {
            wasm_v128_store(s->state[q][0][k] + x, y[k]);
            wasm_v128_store(s->state[q][1][k] + x, z[k]);
          }
        }
        for (int r = 0; r < rows; r++) {
          if (n + r < 0) continue;
          vec *pr = pool[r];
          if (with_ssim) {
            vec m1 = mu[r][0], m2 = mu[r][1];
            vec dm = SUB(m1, m2);
            vec num_m = SUB(SPLAT(1.0f), MUL(dm, dm));
            vec num_s = ADD(MUL(SPLAT(2.0f), SUB(mu[r][4], MUL(m1, m2))), SPLAT(C2));
            vec den_s = ADD(ADD(SUB(mu[r][2], MUL(m1, m1)), SUB(mu[r][3], MUL(m2, m2))), SPLAT(C2));
            vec d = wasm_f32x4_max(SUB(SPLAT(1.0f), wasm_f32x4_div(MUL(num_m, num_s), den_s)), SPLAT(0.0f));
            vec d2 = MUL(d, d);
            pr[0] = ADD(pr[0], d);
            pr[1] = ADD(pr[1], MUL(d2, d2));
          }
          vec e1 = wasm_f32x4_abs(SUB(wasm_v128_load(row1[r] + x), mu[r][0]));
          vec e2 = wasm_f32x4_abs(SUB(wasm_v128_load(row2[r] + x), mu[r][1]));
          vec d = SUB(wasm_f32x4_div(ADD(SPLAT(1.0f), e2), ADD(SPLAT(1.0f), e1)), SPLAT(1.0f));
          vec art = wasm_f32x4_max(d, SPLAT(0.0f)), det = wasm_f32x4_max(wasm_f32x4_neg(d), SPLAT(0.0f));
          vec a2 = MUL(art, art), t2 = MUL(det, det);
          pr[2] = ADD(pr[2], art);
          pr[3] = ADD(pr[3], MUL(a2, a2));
          pr[4] = ADD(pr[4], det);
          pr[5] = ADD(pr[5], MUL(t2, t2));
        }
      }
      for (int r = 0; r < rows; r++) {
        if (n + r < 0) continue;
        float lanes[6][4];
        for (int i = 0; i < 6; i++) wasm_v128_store(lanes[i], pool[r][i]);
        for (int i = 0; i < 6; i++) {
          sum[i] += (double)lanes[i][0] + (double)lanes[i][1] + (double)lanes[i][2] + (double)lanes[i][3];
        }
      }
      n += rows;
    }
  }
  double inv = 1.0 / ((double)width * height);
  for (int i = 0; i < 6; i++) {
    double v = sum[i] * inv;
    out[i] = i & 1 ? __builtin_sqrt(__builtin_sqrt(v)) : v;
  }
}

/*
 * All maps `plan` asks for (18 bytes, scale·3 + channel: 0 none, 1 the edge
 * maps, 2 also SSIM) into norms[108] (zeros elsewhere), indexed c·36 + scale·6
 * + norm·3 + map. Returns 0, or −1 when memory runs out.
 */
EXPORT("compare") int metric_compare(const Pyramid *a, const Pyramid *b, const uint8_t *plan, double *norms) {
  for (int i = 0; i < 108; i++) norms[i] = 0;
  int scales = a->scales < b->scales ? a->scales : b->scales;
  if (scales == 0) return 0;
  Scratch s = {0};
  if (!alloc_scratch(&s, a->widths[0])) {
    free_scratch(&s);
    return -1;
  }
  for (int scale = 0; scale < scales; scale++) {
    for (int c = 0; c < 3; c++) {
      int need = plan[scale * 3 + c];
      const float *pa = a->planes[scale][c], *pb = b->planes[scale][c];
      if (!need || !pa || !pb) continue;
      double m[6];
      channel_maps(&s, pa, pb, a->widths[scale], a->heights[scale], need == 2, m);
      for (int norm = 0; norm < 2; norm++) {
        int at = c * 36 + scale * 6 + norm * 3;
        norms[at] = need == 2 ? m[norm] : 0;
        norms[at + 1] = m[2 + norm];
        norms[at + 2] = m[4 + norm];
      }
    }
  }
  free_scratch(&s);
  return 0;
}

/* One row blurred horizontally (tests: gain and sigma of the kernel). Returns 0, or −1 without memory. */
EXPORT("blur_row") int metric_blur_row(const float *in, float *out, int width) {
  size_t stride = stride_of(width);
  vec *buf = metric_alloc((PAD_LEFT + stride + PAD_RIGHT) * sizeof(vec));
  vec *blurred = metric_alloc(stride * sizeof(vec));
  if (!buf || !blurred) {
    metric_free(buf);
    metric_free(blurred);
    return -1;
  }
  vec *inter = buf + PAD_LEFT;
  for (size_t i = 0; i < PAD_LEFT + stride + PAD_RIGHT; i++) buf[i] = wasm_f32x4_splat(0.0f);
  for (int x = 0; x < width; x++) inter[x] = wasm_f32x4_splat(in[x]);
  blur_rows4(inter, blurred, width);
  for (int x = 0; x < width; x++) out[x] = wasm_f32x4_extract_lane(blurred[x], 0);
  metric_free(buf);
  metric_free(blurred);
  return 0;
}
