// Our entry point into jpegli's libjpeg-style encoder, built to a WASI reactor by
// scripts/build-jpegli-wasm.sh. It takes the RGBA (or grey) pixels our decoder produces and
// exposes only the settings the product uses. Errors trap: the host reads the message from
// jl_error() and throws the instance away, so nothing can reach exit().
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jpegli/encode.h"

static char error_message[JMSG_LENGTH_MAX];
static unsigned char* output = nullptr;
static unsigned long output_size = 0;

static void trap_on_error(j_common_ptr cinfo) {
  (*cinfo->err->format_message)(cinfo, error_message);
  __builtin_trap();
}

// Warnings would go to fd_write; the product has nowhere to show them.
static void ignore_message(j_common_ptr) {}

extern "C" {

__attribute__((export_name("jl_malloc"))) void* jl_malloc(size_t n) { return malloc(n); }
__attribute__((export_name("jl_free"))) void jl_free(void* p) { free(p); }
__attribute__((export_name("jl_error"))) const char* jl_error() { return error_message; }
__attribute__((export_name("jl_output"))) unsigned char* jl_output() { return output; }

// pixels: width × height × 4 (RGBA; alpha ignored), or × 1 when grey is set.
// chroma: 1 = 4:4:4, 2 = 4:2:2, 3 = 4:2:0 (luma factors h×v: 1×1, 2×1, 2×2).
// distance: butteraugli distance, as cjpegli sets it (jpegli_set_distance: separate Cb and Cr tables; about
// 2% smaller at equal SSIMULACRA 2 than jpegli_set_quality's one chroma table). codecs/jpegli/options.ts maps
// the quality setting to it with jpegli's own formula.
// progressive: 0 = sequential, 1-2 = jpegli's progressive levels.
// Returns the output size; the bytes stay at jl_output() until the next call or jl_release().
__attribute__((export_name("jl_encode"))) int jl_encode(const uint8_t* pixels, int width, int height, int grey,
                                                      float distance, int chroma, int progressive, int adaptive,
                                                      int optimize) {
  error_message[0] = 0;
  if (output) {
    free(output);
    output = nullptr;
  }
  output_size = 0;
  jpeg_compress_struct cinfo;
  jpeg_error_mgr jerr;
  cinfo.err = jpegli_std_error(&jerr);
  jerr.error_exit = trap_on_error;
  jerr.output_message = ignore_message;
  jpegli_create_compress(&cinfo);
  jpegli_mem_dest(&cinfo, &output, &output_size);
  cinfo.image_width = width;
  cinfo.image_height = height;
  cinfo.input_components = grey ? 1 : 4;
  cinfo.in_color_space = grey ? JCS_GRAYSCALE : JCS_EXT_RGBA;
  jpegli_set_defaults(&cinfo);
  jpegli_set_distance(&cinfo, distance, TRUE);
  jpegli_enable_adaptive_quantization(&cinfo, adaptive ? TRUE : FALSE);
  jpegli_set_progressive_level(&cinfo, progressive);
  cinfo.optimize_coding = optimize ? TRUE : FALSE;
  // A JFIF header, as MozJPEG writes: our metadata splicing keeps the same segment order for both encoders.
  cinfo.write_JFIF_header = grey || cinfo.jpeg_color_space == JCS_YCbCr ? TRUE : FALSE;
  if (!grey) {
    cinfo.comp_info[0].h_samp_factor = chroma >= 2 ? 2 : 1;
    cinfo.comp_info[0].v_samp_factor = chroma == 3 ? 2 : 1;
    for (int c = 1; c < 3; ++c) cinfo.comp_info[c].h_samp_factor = cinfo.comp_info[c].v_samp_factor = 1;
  }
  jpegli_start_compress(&cinfo, TRUE);
  const int stride = width * (grey ? 1 : 4);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(pixels + (size_t)cinfo.next_scanline * stride);
    jpegli_write_scanlines(&cinfo, &row, 1);
  }
  jpegli_finish_compress(&cinfo);
  jpegli_destroy_compress(&cinfo);
  return (int)output_size;
}

__attribute__((export_name("jl_release"))) void jl_release() {
  free(output);
  output = nullptr;
  output_size = 0;
}

}
