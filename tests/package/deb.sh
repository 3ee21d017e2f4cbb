#!/bin/sh
# deb.sh: builds the Debian package with cpack, unpacks it with dpkg -x and uses the command and the library from there.
#
# Argument: a work folder (emptied). Environment (tests/package/CMakeLists.txt sets it): CPACK,
# CPACK_CONFIG, SYNTH, RUN_CASE, CASE, HEADER, COMPLETION, CC, SANITIZE_FLAGS, VERSION, SOVERSION,
# PREFIX and the install folders BINDIR, LIBDIR, INCLUDEDIR, DATADIR, MANDIR as GNUInstallDirs names them.
set -u
work=$1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

for tool in "$CPACK" dpkg dpkg-deb dpkg-query pkg-config nm objdump "$CC"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "skipped: $tool is not installed (apt-get install dpkg-dev pkg-config binutils)"
		exit 77
	fi
done

rm -rf "$work" && mkdir -p "$work" || exit 1
"$CPACK" -G DEB --config "$CPACK_CONFIG" -B "$work/cpack" >"$work/cpack.log" 2>&1 || {
	cat "$work/cpack.log" >&2
	echo "FAIL: cpack -G DEB failed" >&2
	exit 1
}
deb=$work/cpack/rl-insight_${VERSION}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || { ls "$work/cpack" >&2; echo "FAIL: no $deb" >&2; exit 1; }
root=$work/root
dpkg -x "$deb" "$root" || { echo "FAIL: dpkg -x $deb" >&2; exit 1; }
case $PREFIX in /*) ;; *) echo "FAIL: install prefix $PREFIX is not absolute" >&2; exit 1 ;; esac
usr=$root$PREFIX

# The files the issue lists, where GNUInstallDirs puts them.
fonts=$usr/$DATADIR/rl-insight/fonts
for file in "$BINDIR/rl-insight" "$LIBDIR/librl-insight.so.$SOVERSION" "$INCLUDEDIR/rl_insight.h" \
	"$LIBDIR/pkgconfig/rl-insight.pc" "$MANDIR/man1/rl-insight.1" \
	"$DATADIR/bash-completion/completions/rl-insight" "$DATADIR/rl-insight/fonts/rendering.conf" \
	"$DATADIR/rl-insight/fonts/DejaVuSans.ttf" "$DATADIR/rl-insight/fonts/DejaVuSans-Bold.ttf" \
	"$DATADIR/rl-insight/fonts/DroidSansFallbackFull.ttf"; do
	[ -s "$usr/$file" ] || fail "the package lacks $PREFIX/$file"
done
[ -x "$usr/$BINDIR/rl-insight" ] || fail "$PREFIX/$BINDIR/rl-insight is not executable"
# -lrl-insight finds the unversioned name; the program then needs the soname's.
[ "$(readlink "$usr/$LIBDIR/librl-insight.so")" = "librl-insight.so.$SOVERSION" ] ||
	fail "librl-insight.so does not point at librl-insight.so.$SOVERSION"
cmp -s "$usr/$DATADIR/bash-completion/completions/rl-insight" "$COMPLETION" ||
	fail "the packaged completion is not completion/rl-insight.bash"

# Depends names real packages: each is installed here, where the command runs, and each
# library the command and the shared library link comes from one of them.
depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "the package has no Depends"
names=$(printf '%s\n' "$depends" | tr ',|' '\n\n' | sed -e 's/(.*)//' -e 's/ //g' -e '/^$/d' | sort -u)
for name in $names; do
	case $name in
	*[!a-z0-9.+-]*) fail "Depends names '$name', not a Debian package name" ;;
	*) dpkg-query -W -f='${Status}\n' "$name" 2>/dev/null | grep -q "install ok installed" ||
		fail "Depends names $name, which is not an installed Debian package" ;;
	esac
done
for object in "$usr/$BINDIR/rl-insight" "$usr/$LIBDIR/librl-insight.so.$SOVERSION"; do
	for soname in $(objdump -p "$object" | awk '$1 == "NEEDED" { print $2 }'); do
		owners=$(dpkg -S "*/$soname" 2>/dev/null | sed 's/[:,].*//' | sort -u)
		found=
		for owner in $owners; do
			printf '%s\n' "$names" | grep -qx "$owner" && found=$owner
		done
		[ -n "$found" ] || fail "$(basename "$object") needs $soname (from ${owners:-no package}), not in Depends: $depends"
	done
done

# The library exports exactly the functions the header declares, nothing internal.
"$CC" -fpreprocessed -dD -E -P "$HEADER" | grep -o 'rli_[a-z0-9_]*[[:space:]]*(' |
	sed 's/[[:space:]]*($//' | sort -u >"$work/declared"
nm -D --defined-only "$usr/$LIBDIR/librl-insight.so.$SOVERSION" | awk '{ print $NF }' | sort -u >"$work/exported"
[ -s "$work/declared" ] || fail "no function found in $HEADER"
diff "$work/declared" "$work/exported" >"$work/exports.diff" ||
	fail "exported symbols differ from the header's functions (< declared only, > exported only): $(cat "$work/exports.diff")"

# The command from the scratch root on the generated demo, its fonts from the scratch copy.
"$SYNTH" --demo --output "$work/demo" >/dev/null || { echo "FAIL: rl-insight-synth --demo" >&2; exit 1; }
RLI_FONT_DIR=$fonts sh "$RUN_CASE" "$usr/$BINDIR/rl-insight" "$CASE" "$work/demo" "$work/run" ||
	fail "the packaged rl-insight on the demo profiles"

# A C program built against the scratch library with pkg-config, and run with it.
cat >"$work/count.c" <<'EOF'
#include <rl_insight.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	rli_events *events = NULL;
	rli_profiler detected;
	if (argc != 2 || rli_parse(&events, &detected, argv[1], NULL) != RLI_OK)
		return fprintf(stderr, "%s\n", rli_error_last()), 1;
	printf("%zu %s\n", rli_events_count(events), rli_profiler_name(detected));
	rli_events_free(events);
	return 0;
}
EOF
pc_dir=$usr/$LIBDIR/pkgconfig
flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$pc_dir pkg-config --cflags --libs rl-insight) ||
	fail "pkg-config --cflags --libs rl-insight"
case $flags in *"-I$root"*"-L$root"*|*"-L$root"*"-I$root"*) ;; *) fail "pkg-config gave '$flags', not the scratch root's folders" ;; esac
# shellcheck disable=SC2086 # flags are words
if "$CC" $SANITIZE_FLAGS -o "$work/count" "$work/count.c" $flags; then
	objdump -p "$work/count" | grep -q "NEEDED *librl-insight.so.$SOVERSION\$" ||
		fail "the program does not link librl-insight.so.$SOVERSION"
	LD_LIBRARY_PATH=$usr/$LIBDIR ldd "$work/count" | grep -q "=> $usr/$LIBDIR/librl-insight.so.$SOVERSION " ||
		fail "the program does not load the scratch root's library"
	got=$(LD_LIBRARY_PATH=$usr/$LIBDIR "$work/count" "$work/demo/mstx")
	# The demo: 8 ranks x 4 roles x 3 steps of MSTX traces, one row per trace.
	[ "$got" = "96 mstx" ] || fail "the program printed '$got', want '96 mstx'"
else
	fail "the C program does not compile against the scratch library: $CC $flags"
fi

[ "$failures" -eq 0 ] || exit 1
echo "ok: $(basename "$deb") unpacked, run and linked against"
