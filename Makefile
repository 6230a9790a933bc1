# Set-up and entry points. Works as root on a fresh Debian machine with only the Swift
# toolchain: installs the apt packages that are missing, then builds.

# libegl-mesa0 and libgl1-mesa-dri: the raster tests draw on an OpenGL renderer through SDL's
# offscreen (EGL) driver, which is Mesa's software GL on a machine without a GPU.
# valgrind: make check-memory. The rest: the demo's recording (giflib, libwebp, FFmpeg with libx264 and libvpx) and its HUD
# (SDL2_ttf, fontconfig, the DejaVu fonts); xvfb and xdotool: the window's key test; chromium and
# rlottie: the vector export's tests render the SVG and the Lottie file they write. libgl-dev:
# the Khronos GL header the gpu backend's constants and types come from; glslang-tools: its
# shaders checked by Khronos's reference compiler (GPUContextTests).
APT_PACKAGES := pkg-config libsdl2-dev libsdl2-gfx-dev libsdl2-image-dev libcairo2-dev \
  libegl-mesa0 libgl1-mesa-dri valgrind \
  libgif-dev libwebp-dev libavcodec-dev libavformat-dev libavutil-dev libswscale-dev \
  libsdl2-ttf-dev libfontconfig-dev fonts-dejavu-core xvfb xdotool \
  chromium librlottie0-1 librlottie-dev python3 libgl-dev glslang-tools

.PHONY: deps demo test lint symbol-graphs docs api bench bench-quick check-memory check-threads check-address soak

# Installs only what is missing, so a machine that has everything needs no network.
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  echo "installing:$$missing"; \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get update && \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi

# Opens the window; with no display, renders frames into ./out/ and says so.
demo: deps
	swift run -c release demo

test: deps
	swift build --build-tests
	swift test

# The tree stays `swift format` clean (config: .swift-format).
lint:
	swift format lint --strict -r Package.swift Sources Tests Benchmarks Examples

# The products' symbol graphs, public declarations only (.build/symbol-graphs/<Module>/), which
# docs and api read: written once per make run, so `make docs api` builds and extracts once.
symbol-graphs: deps
	Tools/symbol-graphs.sh

# The products' documentation: each DocC catalog (Sources/<Module>/<Module>.docc) with its
# symbols, built by the toolchain's docc with warnings as errors (Tools/docs.sh). Open
# .build/docs/index.html; DocC's own site is .build/docc/SwiftLoader.doccarchive (serve it).
docs: symbol-graphs
	SYMBOL_GRAPHS_WRITTEN=1 Tools/docs.sh

# The public API listing, api/LoaderCore.txt, api/LoaderPixels.txt and api/LoaderSDL.txt: every
# public declaration, one a line, sorted, from the symbol graphs. Commit it with the change that
# moves it.
api: symbol-graphs
	python3 Tools/api-listing.py

# Benchmarks: the run behind the README's table and chart (assets/bench-*). The bench rebuilds
# itself in release before measuring; the table is renamed into place only when it completes.
bench: deps
	mkdir -p assets
	swift run bench --json assets/bench-results.json --chart assets/bench-chart.png \
	  > assets/bench-table.txt.partial
	mv assets/bench-table.txt.partial assets/bench-table.txt
	cat assets/bench-table.txt

# The smoke run CI can afford (under 60 s of measuring); no timing is asserted.
bench-quick: deps
	swift run bench --quick

# valgrind on the release demo (a grid of 200, 4 frames, --toggle-random, headless, with a
# trace): fails on any memory error or definitely lost block. Library blocks kept until exit
# go in Tools/valgrind.supp, each with its reason.
check-memory: deps
	swift build -c release --product demo
	@out=$$(mktemp -d); \
	SDL_VIDEODRIVER=dummy valgrind --error-exitcode=1 --leak-check=full \
	  --errors-for-leak-kinds=definite --show-leak-kinds=definite \
	  --suppressions=Tools/valgrind.supp \
	  .build/release/demo --headless --scene grid --count 200 --at 0,0.5,1,1.5 \
	  --toggle-random 7 --out $$out --trace $$out/t.json; \
	status=$$?; rm -rf $$out; exit $$status

# ThreadSanitizer over the suites whose code runs on several threads: the pool, the engine's
# passes, the spans blending and mask builds (MaskCacheTests: one shape named thrice in a draw),
# fields and views drawn with threads (on renderers and into pixel buffers), and the stress test of several threads each drawing on its own renderers
# (ThreadStressTests). Any report fails it.
# A build of its own (.build-tsan): sanitized builds define no malloc of the bench's counter.
THREAD_SUITES := WorkerPoolTests|RotationEngineThreadTests|RotationEngineTests|RasterSpanThreadTests|RasterSpanTests|LoaderFieldThreadsTests|LoaderFieldFreeTests|LoaderViewTests|ShapeBudgetTests|MaskCacheTests|PixelBufferTests|ThreadStressTests
check-threads: deps
	swift build --build-tests --sanitize=thread --build-path .build-tsan
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" swift test --skip-build \
	  --sanitize=thread --build-path .build-tsan --filter '$(THREAD_SUITES)'

# AddressSanitizer over the library's suites (LoaderCoreTests, RasterTests: every backend,
# renderer and render state, the fuzz of the public API). Leaks are check-memory's (valgrind
# on the demo): SDL, Mesa and the Swift runtime keep blocks until exit that LeakSanitizer would
# list. LOADER_HEAP_BUFFERS: the caches' large buffers from the allocator, not mapped pages
# (PageMemory), so that an access past their end is caught too.
check-address: deps
	swift build --build-tests --sanitize=address --build-path .build-asan \
	  -Xswiftc -DLOADER_HEAP_BUFFERS
	ASAN_OPTIONS="detect_leaks=0 halt_on_error=1" swift test --skip-build \
	  --sanitize=address --build-path .build-asan --filter 'LoaderCoreTests|RasterTests'

# Resident memory of the release demo's window loop at 10k loaders, every SOAK_INTERVAL
# seconds for SOAK_SECONDS (default 60); XVFB=1 for a real X window under Xvfb.
SOAK_SECONDS ?= 60
soak: deps
	swift build -c release --product demo
	SOAK_SECONDS=$(SOAK_SECONDS) Tools/soak.sh
