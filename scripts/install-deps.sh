#!/usr/bin/env bash
# Install the system packages `make test` needs on Debian 12 (bookworm):
#   - xvfb-run / Xvfb (packages xvfb, xauth) to give ebiten a virtual display;
#   - the X11 / OpenGL runtime libraries ebiten dlopens through purego (no cgo);
#   - a C compiler (gcc, libc6-dev), because `go test -race` requires cgo;
#   - qemu-user with the arm64 and riscv64 C libraries' loaders, the i386
#     loader, and Node.js, for the cross-CPU test (internal/crosscpu): the
#     programs built for arm64, riscv64, 386 and WebAssembly replay a
#     recording made here;
#   - optionally, Chromium (package chromium) for the browser tests of
#     cmd/web: if it cannot be installed, those tests skip and this script
#     says what to install, without failing.
# Only what is missing is installed; when everything is present this runs no
# apt command at all. It also checks for Go >= 1.26 (not installed from apt:
# Debian 12 ships Go 1.19).
set -euo pipefail

want_go_major=1
want_go_minor=26

# package -> cheap fallback probe used when dpkg-query is unavailable or says
# "not installed" (cmd:NAME = on PATH, lib:SONAME = in the ldconfig cache,
# glob:PATTERN = a file exists).
packages=(
  xvfb            'cmd:Xvfb'
  xauth           'cmd:xauth'
  libgl1          'lib:libGL.so.1'
  libglx-mesa0    'lib:libGLX_mesa.so.0'
  libgl1-mesa-dri 'glob:/usr/lib/*/dri/swrast_dri.so'
  libx11-6        'lib:libX11.so.6'
  libxrandr2      'lib:libXrandr.so.2'
  libxcursor1     'lib:libXcursor.so.1'
  libxinerama1    'lib:libXinerama.so.1'
  libxi6          'lib:libXi.so.6'
  libxxf86vm1     'lib:libXxf86vm.so.1'
  libxext6        'lib:libXext.so.6'
  gcc             'cmd:gcc'
  libc6-dev       'glob:/usr/include/stdio.h'
  qemu-user       'cmd:qemu-aarch64'
  libc6-arm64-cross   'glob:/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1'
  libc6-riscv64-cross 'glob:/usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1'
  libc6-i386      'glob:/lib/ld-linux.so.2'
  nodejs          'cmd:node'
)

ldcache=
probe() {
  local spec=$1
  case $spec in
    cmd:*) command -v "${spec#cmd:}" >/dev/null 2>&1 ;;
    lib:*)
      if [ -z "$ldcache" ]; then
        ldcache=$( { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null || true)
      fi
      grep -qF -- "${spec#lib:} " <<<"$ldcache" ;;
    glob:*) compgen -G "${spec#glob:}" >/dev/null ;;
    *) return 1 ;;
  esac
}

# One dpkg-query call for all packages.
names=()
for ((i = 0; i < ${#packages[@]}; i += 2)); do names+=("${packages[i]}"); done
installed=
if command -v dpkg-query >/dev/null 2>&1; then
  installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${names[@]}" 2>/dev/null |
    awk '$NF == "installed" {print $1}' || true)
fi

missing=()
for ((i = 0; i < ${#packages[@]}; i += 2)); do
  pkg=${packages[i]}
  grep -qx -- "$pkg" <<<"$installed" && continue
  probe "${packages[i + 1]}" && continue
  missing+=("$pkg")
done
# xvfb-run comes with the xvfb package (and needs xauth).
if ! command -v xvfb-run >/dev/null 2>&1 && [[ " ${missing[*]} " != *" xvfb "* ]]; then
  missing+=(xvfb)
fi

# Optional packages: tried with the others, and on their own if that fails.
optional=(
  chromium        'cmd:chromium'
)
opt_names=()
for ((i = 0; i < ${#optional[@]}; i += 2)); do opt_names+=("${optional[i]}"); done
opt_installed=
if command -v dpkg-query >/dev/null 2>&1; then
  opt_installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${opt_names[@]}" 2>/dev/null |
    awk '$NF == "installed" {print $1}' || true)
fi
opt_missing=()
for ((i = 0; i < ${#optional[@]}; i += 2)); do
  pkg=${optional[i]}
  grep -qx -- "$pkg" <<<"$opt_installed" && continue
  probe "${optional[i + 1]}" && continue
  opt_missing+=("$pkg")
done
optional_skipped() {
  echo "install-deps: could not install ${opt_missing[*]} ($1): the browser tests (cmd/web) will skip;" \
       "to run them: sudo apt-get install --no-install-recommends ${opt_missing[*]}" >&2
}

# --- Go ----------------------------------------------------------------------
go_msg=
go_ok=1
if ! command -v go >/dev/null 2>&1; then
  go_ok=0
  go_msg="go not found on PATH"
else
  # Run from the repo root so go.mod's toolchain selection applies.
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  gover=$(cd "$root" && go env GOVERSION 2>/dev/null ||
          { cd / && go env GOVERSION 2>/dev/null; } || true)
  if [[ $gover =~ ^go([0-9]+)\.([0-9]+) ]] &&
     { (( BASH_REMATCH[1] > want_go_major )) ||
       { (( BASH_REMATCH[1] == want_go_major )) && (( BASH_REMATCH[2] >= want_go_minor )); }; }; then
    :
  else
    go_ok=0
    go_msg="go is ${gover:-unknown version}"
  fi
fi
go_fail() {
  echo "install-deps: $go_msg; need Go >= ${want_go_major}.${want_go_minor}:" \
       "install it from https://go.dev/dl/ (e.g. go${want_go_major}.${want_go_minor}.x.linux-amd64.tar.gz" \
       "into /usr/local/go and add /usr/local/go/bin to PATH)" >&2
}

# --- install -----------------------------------------------------------------
# install_optional installs the optional packages in an apt run of their own
# (after the required ones), and only says so when it cannot.
install_optional() {
  [ ${#opt_missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then optional_skipped "apt-get not available"; return 0; fi
  local root=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then root=(sudo -n); else
      optional_skipped "not root and no non-interactive sudo"; return 0
    fi
  fi
  local olog
  olog=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX.log")
  if { "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -qq &&
       "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 \
         install -y -qq --no-install-recommends "${opt_missing[@]}"; } >"$olog" 2>&1; then
    echo "install-deps: installed ${opt_missing[*]}"
    rm -f "$olog"
  else
    optional_skipped "apt-get failed; log kept at $olog"
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  install_optional
  if [ $go_ok -eq 1 ]; then
    echo "install-deps: everything present (xvfb-run, Xvfb, X11/GL libraries, C compiler, $gover)"
    exit 0
  fi
  go_fail
  exit 1
fi

manual() {
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: $1; install them with:" >&2
  echo "  sudo apt-get install --no-install-recommends ${missing[*]}" >&2
  [ $go_ok -eq 1 ] || go_fail
  exit 1
}

command -v apt-get >/dev/null 2>&1 || manual "apt-get not available"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  manual "not root and no non-interactive sudo"
fi

log=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX.log")
lock=(-o DPkg::Lock::Timeout=300)
if ! { "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
         apt-get "${lock[@]}" update -qq &&
       "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
         apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}"
     } >"$log" 2>&1; then
  echo "install-deps: apt-get failed installing: ${missing[*]}" >&2
  cat "$log" >&2
  echo "install-deps: (log kept at $log)" >&2
  exit 1
fi
rm -f "$log"

echo "install-deps: installed ${missing[*]}"
install_optional
if [ $go_ok -eq 0 ]; then
  go_fail
  exit 1
fi
