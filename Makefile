# Builds bookclub as one static release executable and installs it, stripped, with its manual page
# and its completions for bash, zsh and fish, all made by the binary itself.
#
#   make install                                  # into ~/.local
#   make && sudo make install PREFIX=/usr/local   # for every user (sudo only copies the files)
#   make uninstall                                # with the PREFIX (and DESTDIR) given to install
#
# PREFIX is where the files go; DESTDIR, if set, goes in front of every path (for packaging). The
# files are made in .build/stage first, so `make install` builds only when a source (or this file)
# has changed.
# SWIFTPM_SCRATCH is swift build's own folder (.build by default): SwiftPM lets one run at a time
# use a folder, so a release build beside `swift test` needs one of its own.

PREFIX ?= $(HOME)/.local
SWIFTPM_SCRATCH ?= .build
DESTDIR ?=
SWIFT ?= swift
STRIP ?= strip
INSTALL ?= install

bindir = $(PREFIX)/bin
man1dir = $(PREFIX)/share/man/man1
bashdir = $(PREFIX)/share/bash-completion/completions
zshdir = $(PREFIX)/share/zsh/site-functions
fishdir = $(PREFIX)/share/fish/vendor_completions.d

# The compiler makes a generic type's metadata (an Optional of a struct, an array of tuples) by
# calling its accessor, not by the runtime demangling its mangled name on first use: each such type
# cost the runtime some 10,000 instructions once a process, a third of a `progress` (3.3 to 2.5
# million instructions, 13% of its time). The same program either way; only how it finds its types.
release = --scratch-path $(SWIFTPM_SCRATCH) -c release -Xswiftc -static-executable \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
stage = .build/stage
sources = Package.swift Makefile $(shell find Sources -type f)
staged = $(stage)/bookclub $(stage)/bookclub.1 $(stage)/completion.bash $(stage)/completion.zsh \
	$(stage)/completion.fish

# A failed swift build fails the line even though its output goes through the filter below.
SHELL = /bin/bash
.SHELLFLAGS = -e -o pipefail -c

# The static link prints six warnings that come from the toolchain's own static libraries, not from
# bookclub, and that nothing on our side can remove: glibc marks these functions so that any static
# link that pulls in the objects calling them warns, whether the program calls them or not. They are
# left out of the build's output, each matched by library, object and text, so any other warning
# still shows:
#  - libswiftCore.a calls dlopen only to load a prespecializations library named by the debugging
#    variables SWIFT_DEBUG_ENABLE_LIB_PRESPECIALIZED and SWIFT_DEBUG_LIB_PRESPECIALIZED_PATH.
#  - libFoundationEssentials.a looks users and groups up with getpwuid_r, getpwnam_r, getgrgid_r and
#    getgrnam_r, which glibc answers through NSS modules it loads from the system at run time (hence
#    the warning). bookclub gets there only for the home folder when HOME is unset, and for the file
#    attributes `sync init` reads (it uses the file's type, not its owner's name).
#  - libFoundationEssentials.a makes a temporary file's name with mktemp and opens it with
#    O_CREAT|O_EXCL, trying again if the name is taken, as mkstemp does: the race the warning is about
#    cannot happen.
glibc_runtime = in statically linked applications requires at runtime the shared libraries from the glibc version used for linking$$
known_warnings = /swift_static/linux/libswiftCore\.a\(LibPrespecialized\.cpp\.o\):.*: warning: Using .dlopen. $(glibc_runtime)
known_warnings += |/swift_static/linux/libFoundationEssentials\.a\([^)]*\):.*: warning: Using .(getpwuid_r|getpwnam_r|getgrgid_r|getgrnam_r). $(glibc_runtime)
known_warnings += |/swift_static/linux/libFoundationEssentials\.a\(Data\+Writing\.swift\.o\):.*: warning: the use of .mktemp. is dangerous, better use .mkstemp. or .mkdtemp.$$

.PHONY: all build install uninstall

all: $(staged)

build: $(stage)/bookclub

$(stage)/bookclub: $(sources)
	@command -v $(STRIP) >/dev/null || { echo "make: $(STRIP) is missing: it comes with binutils (apt-get install binutils), which the Swift toolchain needs too" >&2; exit 1; }
	@echo '$(SWIFT) build $(release)'
	@$(SWIFT) build $(release) 2>&1 | KNOWN='$(subst $(eval) |,|,$(known_warnings))' awk \
	    '$$0 ~ ENVIRON["KNOWN"] { known++; next } { print } END { if (known) print "(" known " known linker warnings from the toolchain'"'"'s static libraries not shown: see the Makefile)" }'
	@mkdir -p $(stage)
	$(STRIP) -o $@ "$$($(SWIFT) build $(release) --show-bin-path)/bookclub"

$(stage)/bookclub.1: $(stage)/bookclub
	$< manual > $@.tmp && mv $@.tmp $@

$(stage)/completion.%: $(stage)/bookclub
	$< completions $* > $@.tmp && mv $@.tmp $@

install: all
	$(INSTALL) -d "$(DESTDIR)$(bindir)" "$(DESTDIR)$(man1dir)" "$(DESTDIR)$(bashdir)" "$(DESTDIR)$(zshdir)" "$(DESTDIR)$(fishdir)"
	$(INSTALL) -m 755 $(stage)/bookclub "$(DESTDIR)$(bindir)/bookclub"
	$(INSTALL) -m 644 $(stage)/bookclub.1 "$(DESTDIR)$(man1dir)/bookclub.1"
	$(INSTALL) -m 644 $(stage)/completion.bash "$(DESTDIR)$(bashdir)/bookclub"
	$(INSTALL) -m 644 $(stage)/completion.zsh "$(DESTDIR)$(zshdir)/_bookclub"
	$(INSTALL) -m 644 $(stage)/completion.fish "$(DESTDIR)$(fishdir)/bookclub.fish"

uninstall:
	rm -f "$(DESTDIR)$(bindir)/bookclub" "$(DESTDIR)$(man1dir)/bookclub.1" "$(DESTDIR)$(bashdir)/bookclub" \
	    "$(DESTDIR)$(zshdir)/_bookclub" "$(DESTDIR)$(fishdir)/bookclub.fish"
