# ClipBridge: the two commands of the README's quick start, and a few more.
#   make demo                      a real clipboard round trip on $DISPLAY (or on a private Xvfb when none is set)
#   make test                      every test (what CI runs): the build and the check that a fresh machine has what
#                                  it used, unit and X11 integration tests against private Xvfb servers, desktop
#                                  applications and compositors, the packaging checks (DocC with warnings as errors,
#                                  an outside package, install) and the fuzz targets
#   make check                     the edit-test loop: the unit and Xvfb suites, without desktop applications,
#                                  compositors, DocC and fuzzing
#   make install PREFIX=/usr/local the static binary, its man page and bash/zsh/fish completions (DESTDIR honoured)
#   make uninstall PREFIX=…        removes them
#   make bench                     Benchmarks/run.sh
.PHONY: deps build demo test check bench install uninstall clean

PREFIX ?= /usr/local
DESTDIR ?=

deps:
	@scripts/install-deps.sh

build: deps
	swift build

demo: deps
	@scripts/demo.sh

test: deps
	@scripts/test.sh

check: deps
	@scripts/test.sh --check

bench: deps
	@Benchmarks/run.sh

install: deps
	@INSTALL_BINDIR="$(PREFIX)/bin" scripts/install.sh "$(DESTDIR)$(PREFIX)"

uninstall:
	@scripts/install.sh --uninstall "$(DESTDIR)$(PREFIX)"

clean:
	swift package clean
