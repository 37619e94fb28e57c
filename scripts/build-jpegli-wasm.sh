#!/usr/bin/env bash
# Builds codecs/jpegli/jpegli.wasm from the pinned sources in ../shared/vendor/ (jpegli 031a0077) and our
# entry point codecs/jpegli/entry.cc, with Debian's clang-19 WASI toolchain (installed if missing), then
# prints the module's sha256. The built module and its hash are committed: `deno task start` and the tests
# need no compiler. `--check` (CI) builds into a temporary folder and fails unless its hash is the recorded one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARBALL="${JPEGLI_TARBALL:-$ROOT/../shared/vendor/jpegli-031a0077.tar.gz}"
TARBALL_SHA256=56b3a0821f232a5516e35219ee27dc4f7a8ed62703dfb552ca98f54b9fe3b683
HASH_FILE="$ROOT/codecs/jpegli/jpegli.wasm.sha256"
CHECK=false
[ "${1:-}" = "--check" ] && CHECK=true

if ! command -v clang++-19 >/dev/null || ! dpkg -s wasi-libc libc++-19-dev-wasm32 lld-19 >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-19 lld-19 \
    libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32 wasi-libc >/dev/null
fi

echo "$TARBALL_SHA256  $TARBALL" | sha256sum -c --quiet -
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# --check builds beside the sources and leaves the committed module alone.
if $CHECK; then OUT="$WORK/jpegli.wasm"; else OUT="$ROOT/codecs/jpegli/jpegli.wasm"; fi
tar -xzf "$TARBALL" -C "$WORK"
cd "$WORK"

# libjpeg's public headers, configured as jpegli's build does (JPEG_LIB_VERSION 62, 8-bit samples).
mkdir -p inc/jpegli shim obj
cp jpegli/third_party/libjpeg-turbo/{jpeglib.h,jmorecfg.h} inc/jpegli/
sed -e 's/@JPEG_LIB_VERSION@/62/' -e 's/@BITS_IN_JSAMPLE@/8/' -e 's/@VERSION@/2.1.91/' \
  -e 's/@LIBJPEG_TURBO_VERSION_NUMBER@/2001091/' -e 's/#cmakedefine MEM_SRCDST_SUPPORTED 1/#define MEM_SRCDST_SUPPORTED 1/' \
  -e 's/^#cmakedefine \(.*\)$/\/* #undef \1 *\//' jpegli/third_party/libjpeg-turbo/jconfig.h.in >inc/jpegli/jconfig.h
# WASI libc has no setjmp.h; jpegli's library code never calls setjmp or longjmp.
echo 'typedef long jmp_buf[8];' >shim/setjmp.h

FLAGS=(--target=wasm32-wasi -O2 -msimd128 -fno-exceptions)
SOURCES=()
for f in adaptive_quantization bit_writer bitstream color_transform common destination_manager downsample encode \
  encode_finish encode_streaming entropy_coding error huffman input memory_manager quant simd; do
  SOURCES+=("jpegli/lib/jpegli/$f.cc")
done
for f in targets per_target abort print aligned_allocator; do SOURCES+=("jpegli/third_party/highway/hwy/$f.cc"); done
SOURCES+=("$ROOT/codecs/jpegli/entry.cc")

pids=()
for src in "${SOURCES[@]}"; do
  obj="obj/$(basename "$(dirname "$src")")-$(basename "$src" .cc).o"
  clang++-19 "${FLAGS[@]}" -std=c++17 -DNDEBUG -Ijpegli -Ijpegli/third_party/highway -Iinc/jpegli -Ishim \
    -c "$src" -o "$obj" &
  pids+=($!)
  # Two compilers at a time: this machine has two cores.
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid"; done

EXPORTS=()
for name in jl_malloc jl_free jl_error jl_output jl_encode jl_release; do EXPORTS+=("-Wl,--export=$name"); done
clang++-19 "${FLAGS[@]}" -mexec-model=reactor "${EXPORTS[@]}" -Wl,-z,stack-size=1048576 -Wl,--strip-all \
  obj/*.o -o "$OUT"

HASH=$(sha256sum "$OUT" | cut -d' ' -f1)
echo "built $OUT ($(wc -c <"$OUT") bytes) sha256 $HASH"
if $CHECK; then
  [ "$HASH" = "$(cut -d' ' -f1 "$HASH_FILE")" ] || { echo "hash differs from $HASH_FILE" >&2; exit 1; }
  echo "matches $HASH_FILE"
else
  echo "$HASH  jpegli.wasm" >"$HASH_FILE"
fi
