#!/usr/bin/env python3
"""Markdown tables of a bench run's host/* entries (Benchmarks/README.md's host section).

usage: Tools/host-tables.py RESULTS.json

One table a figure, a row an entry, a column a view count: frame time and share of a core;
CPU a view adds over the interleaved empty frame; the CPU the views add in all, steady and in
their first second (percentage points of a core at 60 fps); SDL render calls a view adds a
frame (draws in brackets); resident memory over the empty host (the library's caches in
brackets).
"""
import json
import sys

FRAME_MS = 1000 / 60


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: Tools/host-tables.py RESULTS.json", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            results = [r for r in json.load(f)["results"] if r["name"].startswith("host/")]
    except (OSError, ValueError, KeyError) as e:
        print(f"host-tables: cannot read {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    names = list(dict.fromkeys(r["name"] for r in results))
    counts = sorted({r["loaders"] for r in results})
    views = [c for c in counts if c > 0]
    at = {(r["name"], r["loaders"]): r for r in results}

    def table(title, columns, cell):
        print(title + "\n")
        print("| entry | " + " | ".join(columns) + " |")
        print("|---|" + "---|" * len(columns))
        for n in names:
            print(f"| `{n}` | " + " | ".join(cell(at.get((n, c))) for c in cols[title]) + " |")
        print()

    def fmt(x, digits=3):
        return "-" if x is None else f"{x:.{digits}g}"

    cols = {}
    t = "Frame time (wall p50, ms) and share of a core at 60 fps (mean CPU per frame / 16.67 ms):"
    cols[t] = counts
    table(t, [f"{c} views" if c != 1 else "1 view" for c in counts],
          lambda r: "-" if r is None else f"{fmt(r['p50'])} ms, {100 * r['cpu_ms'] / FRAME_MS:.0f}%")
    t = "CPU ms a view adds to a frame over the interleaved empty frame (wall p50 difference in brackets):"
    cols[t] = views
    table(t, [f"{c}" for c in views],
          lambda r: "-" if r is None or "marginal_cpu_ms" not in r
          else f"{fmt(r['marginal_cpu_ms'])} ({fmt(r.get('marginal_wall_ms'))})")
    t = "CPU the views add in all, points of a core at 60 fps: steady / in their first second (the first 60 frames after the count's new views):"
    cols[t] = views
    table(t, [f"{c}" for c in views],
          lambda r: "-" if r is None or "steady_added_cpu_ms" not in r
          else f"{100 * r['steady_added_cpu_ms'] / FRAME_MS:.2f} / "
          f"{100 * r['first_second_added_cpu_ms'] / FRAME_MS:.2f}")
    t = "SDL render calls a view adds to a frame (draws among them in brackets):"
    cols[t] = views
    table(t, [f"{c}" for c in views],
          lambda r: "-" if r is None or "calls_per_view" not in r
          else f"{fmt(r['calls_per_view'])} ({fmt(r['draws_per_view'])})")
    t = "Resident memory over the empty host, MB:"
    cols[t] = views
    table(t, [f"{c}" for c in views],
          lambda r: "-" if r is None or "rss_growth_bytes" not in r
          else f"+{r['rss_growth_bytes'] / 1e6:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
