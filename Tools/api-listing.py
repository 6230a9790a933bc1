#!/usr/bin/env python3
"""Writes api/<Module>.txt: every public declaration of a product, one a line, sorted.

Reads the symbol graphs `Tools/symbol-graphs.sh` wrote (.build/symbol-graphs/<Module>/).
A line is a symbol's path and its declaration, `LoaderView.setAnimating(_:at:)  func
setAnimating(_ on: Bool, at time: Double) throws`, or a conformance, `LoaderStyle: Hashable`,
so adding, removing or changing any of them changes the file. CI (.ci/run) regenerates the
files and fails when `git status --porcelain api/` lists any (a changed, deleted or new file):
an API change is a deliberate commit.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["LoaderCore", "LoaderPixels", "LoaderSDL"]
# Conformances the compiler gives every type that qualifies, whatever its declaration says:
# listing them would only track the toolchain.
IMPLICIT = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype", "Swift.BitwiseCopyable"}


def lines_of(module):
    graphs = sorted((ROOT / ".build" / "symbol-graphs" / module).glob("*.symbols.json"))
    if not graphs:
        sys.exit(f"api-listing: no symbol graph for {module}; run Tools/symbol-graphs.sh first")
    lines = set()
    declarations = 0
    for graph in graphs:
        data = json.loads(graph.read_text())
        paths = {}
        for symbol in data["symbols"]:
            path = ".".join(symbol["pathComponents"])
            paths[symbol["identifier"]["precise"]] = path
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            lines.add(f"{path}  {' '.join(declaration.split())}")
            declarations += 1
        for relation in data.get("relationships", []):
            if relation["kind"] not in ("conformsTo", "inheritsFrom"):
                continue
            source = paths.get(relation["source"])
            if source is None:
                continue  # a conformance of another module's type
            target = relation.get("targetFallback") or paths.get(relation["target"], relation["target"])
            if target not in IMPLICIT:
                lines.add(f"{source}: {target}")
    return sorted(lines), declarations


def main():
    out = ROOT / "api"
    out.mkdir(exist_ok=True)
    for module in MODULES:
        lines, declarations = lines_of(module)
        (out / f"{module}.txt").write_text("".join(line + "\n" for line in lines))
        print(f"api/{module}.txt: {declarations} public declarations, {len(lines) - declarations} conformances")


if __name__ == "__main__":
    main()
