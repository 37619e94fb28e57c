#!/usr/bin/env bash
# Builds codecs/jxl/jxl.wasm from the pinned sources in ../shared/vendor/ (libjxl v0.12.0 with its brotli, highway
# and skcms submodules; ../shared/vendor/README.md has every fact this relies on) and our entry point
# codecs/jxl/entry.cc, with Debian's clang-19 WASI toolchain (installed if missing), then prints the module's
# sha256. One single-threaded WASI reactor that transcodes JPEG to JPEG XL losslessly and back. The built module and
# its hash are committed: `deno task start` and the tests need no compiler. `--check` (CI) builds into a temporary
# folder and fails unless its hash is the recorded one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARBALL="${JXL_TARBALL:-$ROOT/../shared/vendor/libjxl-v0.12.0.tar.gz}"
TARBALL_SHA256=f93ab8dcc57a2eb67acacb3137b233132ccbbf5d3e52002de923c83e017e0749
HASH_FILE="$ROOT/codecs/jxl/jxl.wasm.sha256"
CHECK=false
[ "${1:-}" = "--check" ] && CHECK=true
export LC_ALL=C

if ! command -v clang++-19 >/dev/null || ! dpkg -s wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 \
  libclang-rt-19-dev-wasm32 lld-19 >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-19 lld-19 \
    libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32 wasi-libc >/dev/null
fi

echo "$TARBALL_SHA256  $TARBALL" | sha256sum -c --quiet -
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# --check builds beside the sources and leaves the committed module alone.
if $CHECK; then OUT="$WORK/jxl.wasm"; else OUT="$ROOT/codecs/jxl/jxl.wasm"; fi
tar -xzf "$TARBALL" -C "$WORK"
cd "$WORK"
START=$SECONDS

# The three headers CMake would generate: the version, and export macros that export nothing (a static build).
mkdir -p gen/jxl obj
sed -e 's/@JPEGXL_MAJOR_VERSION@/0/' -e 's/@JPEGXL_MINOR_VERSION@/12/' -e 's/@JPEGXL_PATCH_VERSION@/0/' \
  libjxl/lib/jxl/version.h.in >gen/jxl/version.h
for name in jxl_export:JXL jxl_cms_export:JXL_CMS; do
  file=${name%%:*} prefix=${name##*:}
  {
    echo "#ifndef ${prefix}_EXPORT_H"
    echo "#define ${prefix}_EXPORT_H"
    for macro in EXPORT NO_EXPORT DEPRECATED DEPRECATED_EXPORT DEPRECATED_NO_EXPORT; do
      echo "#define ${prefix}_${macro}"
    done
    echo "#endif"
  } >"gen/jxl/$file.h"
done

# libjxl: every .cc of the decoder, JPEG reconstruction, box, encoder and CMS lists (no threads, no extras).
mapfile -t JXL_SOURCES < <(awk '
  /^set\(JPEGXL_INTERNAL_(DEC|DEC_JPEG|DEC_BOX|ENC|CMS)_SOURCES$/ { keep = 1; next }
  /^\)/ { keep = 0 }
  keep && $1 ~ /\.cc$/ { print "libjxl/lib/" $1 }
' libjxl/lib/jxl_lists.cmake | sort -u)
[ ${#JXL_SOURCES[@]} -eq 135 ] || { echo "expected 135 libjxl sources, found ${#JXL_SOURCES[@]}" >&2; exit 1; }
BROTLI_SOURCES=(libjxl/third_party/brotli/c/{common,dec,enc}/*.c)
HWY_SOURCES=()
for f in abort aligned_allocator per_target print targets; do HWY_SOURCES+=("libjxl/third_party/highway/hwy/$f.cc"); done
SKCMS_SOURCES=(libjxl/third_party/skcms/skcms.cc libjxl/third_party/skcms/src/skcms_TransformBaseline.cc)

# Paths stay out of the module (assertion messages name files): the build is reproducible wherever it runs.
COMMON=(--target=wasm32-wasi -O2 -msimd128 -DNDEBUG -fno-exceptions "-fmacro-prefix-map=$WORK/=" \
  "-fmacro-prefix-map=$ROOT/=")
CXX=(clang++-19 "${COMMON[@]}" -std=c++17 -fno-rtti)
HWY_INC=(-Ilibjxl/third_party/highway)
JXL_FLAGS=(-DJXL_INTERNAL_LIBRARY_BUILD -DJXL_STATIC_DEFINE -DJXL_CMS_STATIC_DEFINE -DJPEGXL_ENABLE_TRANSCODE_JPEG=1
  -DJPEGXL_ENABLE_BOXES=1 -DJPEGXL_ENABLE_SKCMS=1 -Ilibjxl -Ilibjxl/lib/include -Igen "${HWY_INC[@]}"
  -Ilibjxl/third_party/brotli/c/include -Ilibjxl/third_party/skcms)

# One compile command a line, run by sh (no path here has a space).
{
  for src in "${JXL_SOURCES[@]}" "$ROOT/codecs/jxl/entry.cc"; do
    echo "${CXX[*]} ${JXL_FLAGS[*]} -c $src -o obj/$(echo "${src#"$ROOT"/}" | tr / _).o"
  done
  for src in "${BROTLI_SOURCES[@]}"; do
    echo "clang-19 ${COMMON[*]} -Ilibjxl/third_party/brotli/c/include -c $src -o obj/$(echo "$src" | tr / _).o"
  done
  for src in "${HWY_SOURCES[@]}"; do
    echo "${CXX[*]} ${HWY_INC[*]} -c $src -o obj/$(echo "$src" | tr / _).o"
  done
  # skcms's [[clang::musttail]] needs WebAssembly tail calls; its portable path needs none (and no x86 paths).
  for src in "${SKCMS_SOURCES[@]}"; do
    echo "${CXX[*]} -DSKCMS_HAS_MUSTTAIL=0 -DSKCMS_DISABLE_HSW -DSKCMS_DISABLE_SKX -Ilibjxl/third_party/skcms \
-c $src -o obj/$(echo "$src" | tr / _).o"
  done
} >commands.txt
echo "compiling $(wc -l <commands.txt) files, two at a time (this machine has two cores)"
# Each line is one command; sh runs it. xargs stops at the first failure (exit 255 from the failing command).
tr '\n' '\0' <commands.txt | xargs -0 -P2 -I{} sh -c '{} || exit 255'

# No -O on the link line: with it clang-19 runs binaryen's wasm-opt when one is on PATH, and the module would
# depend on what is installed (../shared/vendor/README.md).
EXPORTS=()
for name in jxl_malloc jxl_free jxl_alloc_failed jxl_from_jpeg jpeg_from_jxl; do EXPORTS+=("-Wl,--export=$name"); done
clang++-19 --target=wasm32-wasi -mexec-model=reactor "${EXPORTS[@]}" -Wl,-z,stack-size=1048576 -Wl,--gc-sections \
  -Wl,--strip-all obj/*.o -o "$OUT"

HASH=$(sha256sum "$OUT" | cut -d' ' -f1)
echo "built $OUT ($(wc -c <"$OUT") bytes) in $((SECONDS - START)) s, sha256 $HASH"
if $CHECK; then
  [ "$HASH" = "$(cut -d' ' -f1 "$HASH_FILE")" ] || { echo "hash differs from $HASH_FILE" >&2; exit 1; }
  echo "matches $HASH_FILE"
else
  echo "$HASH  jxl.wasm" >"$HASH_FILE"
fi
