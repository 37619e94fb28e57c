#!/bin/sh
# Builds codecs/quality/ssimulacra2.wasm from codecs/quality/ssimulacra2.c (our own C, no libc).
# Needs clang and wasm-ld (Debian: apt-get install clang lld); the built .wasm is committed.
set -eu
cd "$(dirname "$0")/.."
clang --target=wasm32 -O3 -msimd128 -mbulk-memory -nostdlib -ffreestanding -Wall -Wextra \
  -Wl,--no-entry -Wl,--strip-all -Wl,--initial-memory=1048576 \
  -o codecs/quality/ssimulacra2.wasm codecs/quality/ssimulacra2.c
echo "built codecs/quality/ssimulacra2.wasm ($(wc -c < codecs/quality/ssimulacra2.wasm) bytes)"
