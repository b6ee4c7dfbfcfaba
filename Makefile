# ClipBridge: the two commands of the README's quick start, and a few more.
#   make demo   a real clipboard round trip on $DISPLAY (or on a private Xvfb when none is set)
#   make test   every test: unit tests and the X11 integration tests against a private Xvfb
.PHONY: deps build demo test bench clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build

demo: deps
	@scripts/demo.sh

test: deps
	@scripts/test.sh

bench: deps
	@Benchmarks/run.sh

clean:
	swift package clean
