#!/bin/sh
# Writes the products' symbol graphs, public declarations only, to .build/symbol-graphs/<Module>/:
# builds LoaderSDL (and so LoaderCore) in debug, then reads the modules that build left with
# the toolchain's swift-symbolgraph-extract, so no build flag changes and nothing rebuilds.
# Synthesized members (an Equatable's !=, a RawRepresentable's init) are left out: they are
# the language's, not the package's. `make docs` and `make api` read these graphs.
set -eu
cd "$(dirname "$0")/.."
swift build --target LoaderSDL >&2
modules="$(swift build --show-bin-path)/Modules"
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)
for module in LoaderCore LoaderPixels LoaderSDL; do
  out=.build/symbol-graphs/$module
  rm -rf "$out"
  mkdir -p "$out"
  swift-symbolgraph-extract -module-name "$module" -I "$modules" -I Sources/CSwiftLoaderSDL2 -I Sources/CSwiftLoaderShims -I Sources/CSwiftLoaderGL \
    -target "$triple" -minimum-access-level public -skip-synthesized-members -emit-extension-block-symbols \
    -output-dir "$out"
done
