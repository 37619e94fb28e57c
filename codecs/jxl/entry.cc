// Our entry point into libjxl's lossless JPEG ⇄ JPEG XL transcoding, built to a WASI reactor by
// scripts/build-jxl-wasm.sh. Two calls: jxl_from_jpeg (a JPEG's own coefficients and its reconstruction data in a
// JPEG XL container) and jpeg_from_jxl (the original JPEG back, byte for byte). Bad input is never fatal: each
// call returns a status code (below) and the host reads nothing else. Only running out of memory inside libjxl's
// C++ containers traps (there are no exceptions to throw); jxl_alloc_failed() then says so, and the host
// replaces the instance.
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <new>

// Status codes, the same in codecs/jxl/transcode.ts.
enum TranscodeStatus {
  JT_OK = 0,
  JT_NOT_JPEG = 1,           // no JPEG start (SOI) marker
  JT_UNSUPPORTED_JPEG = 2,   // a JPEG libjxl cannot transcode: arithmetic-coded, lossless, hierarchical, 12-bit, CMYK
  JT_CORRUPT_JPEG = 3,       // starts like a JPEG, but libjxl's parser rejects it (damaged, truncated)
  JT_NOT_JXL = 4,            // no JPEG XL signature (codestream or container)
  JT_TRUNCATED_JXL = 5,      // a JPEG XL signature, then the data ends before the JPEG is complete
  JT_INVALID_JXL = 6,        // a JPEG XL file the decoder rejects (corrupt codestream or reconstruction data)
  JT_NO_RECONSTRUCTION = 7,  // a valid JPEG XL without JPEG reconstruction data (encoded from pixels)
  JT_OUT_OF_MEMORY = 8,
  JT_BAD_ARGUMENT = 9,       // effort outside 1-10, null pointers
  JT_INTERNAL = 10,          // libjxl failed otherwise
  JT_TOO_LARGE = 11,         // more than MAX_PIXELS: libjxl's sizes would overflow 32-bit WebAssembly
};

// libjxl sizes its coefficient buffers in 64-bit and resizes vectors with the result: past 2^32 elements it
// truncates on 32-bit WebAssembly (a 65535 × 65535 JPEG gets an empty buffer), past about 2^31 bytes it aborts.
// 2^28 pixels stays clear of both; the memory runs out well before (about 60 bytes a pixel: some 70 MP in 4 GiB),
// which the allocation checks report.
static const uint64_t MAX_PIXELS = uint64_t(1) << 28;

// Set by every allocation that fails (libjxl's memory manager, our buffers, operator new).
static int alloc_failed = 0;

static void* mm_alloc(void*, size_t size) {
  void* p = malloc(size);
  if (!p) alloc_failed = 1;
  return p;
}
static void mm_free(void*, void* p) { free(p); }
static JxlMemoryManager memory_manager = {nullptr, mm_alloc, mm_free};

static void* checked_malloc(size_t size) { return mm_alloc(nullptr, size); }
static void* checked_realloc(void* p, size_t size) {
  void* q = realloc(p, size);
  if (!q) alloc_failed = 1;
  return q;
}

// operator new cannot throw here (-fno-exceptions): a failed allocation in a std::vector inside libjxl traps.
// Ours records why first, so the host can tell memory from a bug.
static void* new_or_trap(size_t size) {
  void* p = malloc(size ? size : 1);
  if (!p) {
    alloc_failed = 1;
    __builtin_trap();
  }
  return p;
}
static void* aligned_new_or_trap(size_t size, std::align_val_t align) {
  void* p = nullptr;
  size_t a = static_cast<size_t>(align);
  if (a < sizeof(void*)) a = sizeof(void*);
  if (posix_memalign(&p, a, size ? size : 1) != 0 || !p) {
    alloc_failed = 1;
    __builtin_trap();
  }
  return p;
}
void* operator new(size_t size) { return new_or_trap(size); }
void* operator new[](size_t size) { return new_or_trap(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  void* p = malloc(size ? size : 1);
  if (!p) alloc_failed = 1;
  return p;
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void* operator new(size_t size, std::align_val_t align) { return aligned_new_or_trap(size, align); }
void* operator new[](size_t size, std::align_val_t align) { return aligned_new_or_trap(size, align); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }
void operator delete(void* p, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { free(p); }

// What libjxl would refuse, told before it parses: its parser reports every refusal as the same generic failure.
// Walks the marker segments up to the first scan and reads the frame header (SOF).
static int classify_jpeg(const uint8_t* data, size_t len) {
  if (len < 3 || data[0] != 0xff || data[1] != 0xd8 || data[2] != 0xff) return JT_NOT_JPEG;
  size_t pos = 2;
  while (pos + 1 < len) {
    if (data[pos] != 0xff) return JT_OK;  // not where a marker should be: the parser will say what is wrong
    while (pos + 1 < len && data[pos + 1] == 0xff) ++pos;  // fill bytes
    if (pos + 1 >= len) break;
    const uint8_t marker = data[pos + 1];
    pos += 2;
    if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;  // no length
    if (marker == 0xd9 || marker == 0xda) return JT_OK;                   // EOI, SOS: the header is over
    if (pos + 2 > len) break;
    const size_t length = (size_t(data[pos]) << 8) | data[pos + 1];
    // Arithmetic coding (SOF9-11, SOF13-15, DAC), lossless (SOF3), hierarchical (SOF5-7, DHP, EXP).
    if (marker == 0xc3 || (marker >= 0xc5 && marker <= 0xc7) || (marker >= 0xc9 && marker <= 0xcb) ||
        (marker >= 0xcc && marker <= 0xcf) || marker == 0xde || marker == 0xdf) {
      return JT_UNSUPPORTED_JPEG;
    }
    if (marker >= 0xc0 && marker <= 0xc2) {
      if (pos + 8 > len) break;
      const int precision = data[pos + 2];
      const int components = data[pos + 7];
      // The reconstruction data is defined for 8-bit samples; JPEG XL has no CMYK (or 2-channel) colour for them.
      if (precision != 8 || (components != 1 && components != 3)) return JT_UNSUPPORTED_JPEG;
      const uint64_t height = (uint64_t(data[pos + 3]) << 8) | data[pos + 4];
      const uint64_t width = (uint64_t(data[pos + 5]) << 8) | data[pos + 6];
      return width * height > MAX_PIXELS ? JT_TOO_LARGE : JT_OK;
    }
    pos += length;
  }
  return JT_OK;  // ended before a frame header: the parser reports it as damaged
}

static void write_output(uint8_t* buffer, size_t size, uint8_t** out, size_t* out_len) {
  *out = buffer;
  *out_len = size;
}

extern "C" {

__attribute__((export_name("jxl_malloc"))) void* jxl_malloc(size_t n) { return checked_malloc(n); }
__attribute__((export_name("jxl_free"))) void jxl_free(void* p) { free(p); }
// 1 once any allocation has failed since the last call began: read it after a trap.
__attribute__((export_name("jxl_alloc_failed"))) int jxl_alloc_failed() { return alloc_failed; }

// JPEG → JPEG XL, losslessly: the JPEG's coefficients and the data to rebuild its bytes, in a container.
// effort: 1-10 (libjxl's scale; cjxl's default is 7). On JT_OK, *out is a malloc'd buffer of *out_len bytes that
// the caller frees with jxl_free; on any other status *out is null.
__attribute__((export_name("jxl_from_jpeg"))) int jxl_from_jpeg(const uint8_t* jpeg, size_t len, int effort,
                                                                uint8_t** out, size_t* out_len) {
  alloc_failed = 0;
  if (!out || !out_len) return JT_BAD_ARGUMENT;
  write_output(nullptr, 0, out, out_len);
  if (effort < 1 || effort > 10) return JT_BAD_ARGUMENT;
  if (!jpeg) return JT_NOT_JPEG;
  const int kind = classify_jpeg(jpeg, len);
  if (kind != JT_OK) return kind;

  JxlEncoder* enc = JxlEncoderCreate(&memory_manager);
  if (!enc) return JT_OUT_OF_MEMORY;
  int status = JT_OK;
  uint8_t* buffer = nullptr;
  size_t capacity = 0, used = 0;
  JxlEncoderFrameSettings* settings = nullptr;
  if (JxlEncoderUseContainer(enc, JXL_TRUE) != JXL_ENC_SUCCESS ||
      JxlEncoderStoreJPEGMetadata(enc, JXL_TRUE) != JXL_ENC_SUCCESS ||
      !(settings = JxlEncoderFrameSettingsCreate(enc, nullptr)) ||
      JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort) != JXL_ENC_SUCCESS) {
    status = alloc_failed ? JT_OUT_OF_MEMORY : JT_INTERNAL;
  } else if (JxlEncoderAddJPEGFrame(settings, jpeg, len) != JXL_ENC_SUCCESS) {
    switch (JxlEncoderGetError(enc)) {
      case JXL_ENC_ERR_OOM: status = JT_OUT_OF_MEMORY; break;
      case JXL_ENC_ERR_NOT_SUPPORTED:
      case JXL_ENC_ERR_JBRD: status = JT_UNSUPPORTED_JPEG; break;
      default: status = alloc_failed ? JT_OUT_OF_MEMORY : JT_CORRUPT_JPEG; break;
    }
  } else {
    JxlEncoderCloseInput(enc);
    // A transcoded JPEG is smaller than the JPEG: one growth at most, in practice none.
    capacity = len + 4096;
    buffer = static_cast<uint8_t*>(checked_malloc(capacity));
    JxlEncoderStatus result = buffer ? JXL_ENC_NEED_MORE_OUTPUT : JXL_ENC_ERROR;
    while (result == JXL_ENC_NEED_MORE_OUTPUT) {
      if (used == capacity) {
        uint8_t* grown = static_cast<uint8_t*>(checked_realloc(buffer, capacity * 2));
        if (!grown) break;
        buffer = grown;
        capacity *= 2;
      }
      uint8_t* next = buffer + used;
      size_t available = capacity - used;
      result = JxlEncoderProcessOutput(enc, &next, &available);
      used = next - buffer;
    }
    if (result != JXL_ENC_SUCCESS) {
      // The JPEG parsed: what fails here is memory, or a JPEG libjxl's frame encoder does not take.
      status = alloc_failed || JxlEncoderGetError(enc) == JXL_ENC_ERR_OOM ? JT_OUT_OF_MEMORY : JT_UNSUPPORTED_JPEG;
    }
  }
  JxlEncoderDestroy(enc);
  if (status != JT_OK) {
    free(buffer);
    return status;
  }
  uint8_t* fitted = static_cast<uint8_t*>(realloc(buffer, used ? used : 1));
  write_output(fitted ? fitted : buffer, used, out, out_len);
  return JT_OK;
}

// JPEG XL → the JPEG it was transcoded from, byte for byte. On JT_OK, *out is a malloc'd buffer of *out_len bytes
// that the caller frees with jxl_free; on any other status *out is null. Pixels are never decoded: a JPEG XL
// without reconstruction data stops where the decoder asks for a pixel buffer.
__attribute__((export_name("jpeg_from_jxl"))) int jpeg_from_jxl(const uint8_t* jxl, size_t len, uint8_t** out,
                                                                size_t* out_len) {
  alloc_failed = 0;
  if (!out || !out_len) return JT_BAD_ARGUMENT;
  write_output(nullptr, 0, out, out_len);
  if (!jxl) return JT_NOT_JXL;
  switch (JxlSignatureCheck(jxl, len)) {
    case JXL_SIG_CODESTREAM:
    case JXL_SIG_CONTAINER: break;
    case JXL_SIG_NOT_ENOUGH_BYTES: return len == 0 ? JT_NOT_JXL : JT_TRUNCATED_JXL;
    default: return JT_NOT_JXL;
  }

  JxlDecoder* dec = JxlDecoderCreate(&memory_manager);
  if (!dec) return JT_OUT_OF_MEMORY;
  int status = JT_INTERNAL;
  uint8_t* buffer = nullptr;
  size_t capacity = 0;
  // The input is not closed: a file that ends early then asks for more input (truncated) instead of failing.
  if (JxlDecoderSubscribeEvents(dec, JXL_DEC_JPEG_RECONSTRUCTION | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS ||
      JxlDecoderSetInput(dec, jxl, len) != JXL_DEC_SUCCESS) {
    status = alloc_failed ? JT_OUT_OF_MEMORY : JT_INTERNAL;
  } else {
    for (;;) {
      const JxlDecoderStatus event = JxlDecoderProcessInput(dec);
      if (event == JXL_DEC_JPEG_RECONSTRUCTION) {
        // The JPEG is usually 1.1-1.4 times the JPEG XL.
        capacity = len + len / 2 + 65536;
        buffer = static_cast<uint8_t*>(checked_malloc(capacity));
        if (!buffer || JxlDecoderSetJPEGBuffer(dec, buffer, capacity) != JXL_DEC_SUCCESS) {
          status = alloc_failed ? JT_OUT_OF_MEMORY : JT_INTERNAL;
          break;
        }
      } else if (event == JXL_DEC_JPEG_NEED_MORE_OUTPUT) {
        const size_t used = capacity - JxlDecoderReleaseJPEGBuffer(dec);
        uint8_t* grown = static_cast<uint8_t*>(checked_realloc(buffer, capacity * 2));
        if (!grown) {
          status = JT_OUT_OF_MEMORY;
          break;
        }
        buffer = grown;
        capacity *= 2;
        if (JxlDecoderSetJPEGBuffer(dec, buffer + used, capacity - used) != JXL_DEC_SUCCESS) {
          status = JT_INTERNAL;
          break;
        }
      } else if (event == JXL_DEC_FULL_IMAGE) {
        if (!buffer) {
          status = JT_NO_RECONSTRUCTION;
          break;
        }
        const size_t used = capacity - JxlDecoderReleaseJPEGBuffer(dec);
        uint8_t* fitted = static_cast<uint8_t*>(realloc(buffer, used ? used : 1));
        if (fitted) buffer = fitted;
        write_output(buffer, used, out, out_len);
        buffer = nullptr;
        status = JT_OK;
        break;
      } else if (event == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
        // Only reached without JPEG reconstruction data: the decoder wants somewhere to put pixels.
        status = JT_NO_RECONSTRUCTION;
        break;
      } else if (event == JXL_DEC_NEED_MORE_INPUT) {
        status = JT_TRUNCATED_JXL;
        break;
      } else if (event == JXL_DEC_SUCCESS) {
        // Every box read, no frame: nothing to rebuild.
        status = JT_INVALID_JXL;
        break;
      } else {
        status = alloc_failed ? JT_OUT_OF_MEMORY : JT_INVALID_JXL;
        break;
      }
    }
  }
  JxlDecoderDestroy(dec);
  free(buffer);
  return status;
}

}
