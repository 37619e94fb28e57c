#!/bin/sh
# Builds codecs/quality/ssimulacra2.wasm from codecs/quality/ssimulacra2.c (our own C, no libc), twice: with
# relaxed SIMD (fused multiply-adds in one instruction, where the CPU has FMA) and without (FMAs emulated in
# double: ssimulacra2-fma-emulated.wasm, used where relaxed SIMD is missing or not fused; ssimulacra2.ts picks).
# Needs clang 19 and wasm-ld (Debian: apt-get install clang-19 lld-19); the built .wasm files are committed.
set -eu
cd "$(dirname "$0")/.."
build() {
  clang-19 --target=wasm32 -O3 -msimd128 "$@" -mbulk-memory -nostdlib -ffreestanding -Wall -Wextra \
    -Wl,--no-entry -Wl,--strip-all -Wl,--initial-memory=1048576 codecs/quality/ssimulacra2.c
}
build -mrelaxed-simd -o codecs/quality/ssimulacra2.wasm
build -o codecs/quality/ssimulacra2-fma-emulated.wasm
for f in codecs/quality/ssimulacra2.wasm codecs/quality/ssimulacra2-fma-emulated.wasm; do
  echo "built $f ($(wc -c < "$f") bytes)"
done
