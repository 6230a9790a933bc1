#!/bin/sh
# The raster and frame entries on an OpenGL renderer through EGL (SDL's offscreen video
# driver), and the host/opengl/* entries (a 1920x1080 program on SDL's OpenGL renderer, the
# sprite peer beside the library's drawers): on a machine with a GPU that is the GPU,
# elsewhere Mesa's llvmpipe (every core of the CPU). Among them the gpu backend's own:
# frame/gpu at 1k to 1M loaders (on OpenGL whatever BENCH_RENDERER says, so `make bench-quick`
# runs it on llvmpipe at 100 loaders), with the calling thread's CPU ms a frame and its PSNR against
# frame/spans, and host/opengl/gpu at 0 to 100 views. Nothing in CI needs a GPU; each entry's
# notes end with the GL renderer it drew on, so a table from llvmpipe cannot pass for a GPU's.
#   Benchmarks/gpu.sh            the full sizes
#   Benchmarks/gpu.sh --quick    fewer sizes and samples
#   BENCH=path/to/bench Benchmarks/gpu.sh   a prebuilt release bench (a machine with a GPU
#                                 and no Swift toolchain): nothing is built
set -eu
cd "$(dirname "$0")/.."
case "${1:-}" in
  "" | --quick) ;;
  *) echo "gpu.sh: unknown argument '$1' (only --quick)" >&2; exit 2 ;;
esac
if [ -n "${BENCH:-}" ]; then
  run() { "$BENCH" "$@"; }
else
  run() { swift run -c release bench "$@"; }
fi
for entry in raster/ frame/ host/opengl/; do
  BENCH_RENDERER=opengl run --filter "$entry" ${1:+"$1"}
done
