#!/bin/sh
# Runs the release demo's window loop at 10k loaders (SOAK_SCENE and SOAK_COUNT: another
# scene or count) for SOAK_SECONDS and prints its resident
# memory every SOAK_INTERVAL seconds: the engine's memory is fixed by the loader count, so the
# column must stay flat after the first seconds. The window is SDL's offscreen (EGL) driver,
# so no display is needed; with XVFB=1 it is a real X window under Xvfb instead.
set -eu
seconds=${SOAK_SECONDS:-60}
interval=${SOAK_INTERVAL:-5}
count=${SOAK_COUNT:-10000}
scene=${SOAK_SCENE:-grid}
demo=${DEMO:-.build/release/demo}
[ -x "$demo" ] || { echo "soak: $demo is not built (swift build -c release --product demo)" >&2; exit 2; }

if [ "${XVFB:-0}" = 1 ]; then
  xvfb-run -a -s "-screen 0 1920x1080x24" "$demo" --scene "$scene" --count "$count" >/dev/null 2>&1 &
else
  SDL_VIDEODRIVER=offscreen "$demo" --scene "$scene" --count "$count" >/dev/null 2>&1 &
fi
launcher=$!
sleep 2
pid=$launcher
# Under xvfb-run the demo is xvfb-run's child.
[ "${XVFB:-0}" = 1 ] && pid=$(pgrep -P "$launcher" -f "$demo" || true)
[ -n "$pid" ] || { echo "soak: the demo did not start" >&2; kill "$launcher" 2>/dev/null; exit 1; }

echo "soak: demo --scene $scene --count $count, pid $pid, ${seconds} s"
echo "seconds  rss_MiB"
start=$(date +%s)
status=0
while :; do
  now=$(( $(date +%s) - start ))
  rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null || true)
  if [ -z "$rss" ]; then echo "soak: the demo exited early" >&2; status=1; break; fi
  printf '%7d  %7s\n' "$now" "$rss"
  [ "$now" -ge "$seconds" ] && break
  sleep "$interval"
done
kill -TERM "$pid" 2>/dev/null || true
wait "$launcher" 2>/dev/null || true
exit $status
