#!/bin/sh
# make docs: the products' DocC catalogs (Sources/<Module>/<Module>.docc) with their symbols,
# built with the toolchain's own docc, no package plugin, every warning an error:
#   .build/docs/index.html                     plain HTML of every page; opens from a file
#   .build/docc/SwiftLoader.doccarchive        DocC's own site (a JavaScript app: serve it, e.g.
#                                              python3 -m http.server -d .build/docc/SwiftLoader.doccarchive)
# LoaderPixels' and LoaderSDL's pages link the modules below them (``/LoaderCore/LoaderStyle``,
# ``/LoaderPixels/LoaderView``) through docc's external links: each archive is built after
# those it depends on and given them as dependencies, then the three are merged into one site. The symbols are Tools/symbol-graphs.sh's, run here
# unless SYMBOL_GRAPHS_WRITTEN=1 says the caller just ran it (make's symbol-graphs target, so
# `make docs api` writes them once for both).
set -eu
cd "$(dirname "$0")/.."
[ "${SYMBOL_GRAPHS_WRITTEN:-}" = 1 ] || Tools/symbol-graphs.sh
archives=.build/docc
rm -rf "$archives"
mkdir -p "$archives"
# Each catalog's picture is a link to assets/loader.gif (one copy in the repository); docc
# copies links as links, so the catalogs are built from copies with the links followed.
catalogs=.build/docc-catalogs
rm -rf "$catalogs"
mkdir -p "$catalogs"
convert() {
  module=$1
  shift
  cp -RL "Sources/$module/$module.docc" "$catalogs/"
  docc convert "$catalogs/$module.docc" \
    --additional-symbol-graph-dir ".build/symbol-graphs/$module" \
    --output-path "$archives/$module.doccarchive" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --enable-experimental-external-link-support --warnings-as-errors "$@"
}
convert LoaderCore
convert LoaderPixels --dependency "$archives/LoaderCore.doccarchive"
convert LoaderSDL --dependency "$archives/LoaderCore.doccarchive" \
  --dependency "$archives/LoaderPixels.doccarchive"
docc merge "$archives/LoaderCore.doccarchive" "$archives/LoaderPixels.doccarchive" \
  "$archives/LoaderSDL.doccarchive" \
  --synthesized-landing-page-name SwiftLoader --output-path "$archives/SwiftLoader.doccarchive"
python3 Tools/docc-html.py "$archives/SwiftLoader.doccarchive" .build/docs
echo "docs: .build/docs/index.html"
