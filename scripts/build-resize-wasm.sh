#!/bin/sh
# Builds codecs/image/resize.wasm from codecs/image/resize.c (our own C, no libc): the resampler's two passes in
# WebAssembly SIMD. Needs clang 19 and wasm-ld (Debian: apt-get install clang-19 lld-19); the .wasm is committed.
set -eu
cd "$(dirname "$0")/.."
clang-19 --target=wasm32 -O3 -msimd128 -mbulk-memory -nostdlib -ffreestanding -Wall -Wextra \
  -Wl,--no-entry -Wl,--strip-all -Wl,--initial-memory=1048576 -o codecs/image/resize.wasm codecs/image/resize.c
echo "built codecs/image/resize.wasm ($(wc -c < codecs/image/resize.wasm) bytes)"
