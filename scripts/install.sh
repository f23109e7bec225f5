#!/bin/sh
# Install Charter Harness from a GitHub release, without Rust: download the release archive for
# this machine, check its SHA-256 against the .sha256 published beside it, and install the
# `harness` binary into a folder. A checksum that does not match installs nothing (exit 1).
#
#   curl -fsSL https://raw.githubusercontent.com/charter-harness/charter-harness/v0.2.0/scripts/install.sh | sh
#   sh scripts/install.sh [--version vX.Y.Z] [--to DIR]
#
# --to DIR       where `harness` goes (default: $CHARTER_HARNESS_INSTALL_DIR, else ~/.local/bin)
# --version TAG  the release (default: $CHARTER_HARNESS_VERSION, else the release this script
#                shipped with)
# CHARTER_HARNESS_RELEASES_URL  where releases are downloaded from (default: this project's
#                GitHub releases); the archive is $CHARTER_HARNESS_RELEASES_URL/TAG/NAME.
#
# The checksum proves the download is the archive the release published (integrity). That the
# release was built by this project's workflow (authenticity) is `gh attestation verify ARCHIVE
# --repo charter-harness/charter-harness` (docs/setup.md).
set -eu

# The release this script ships with: equal to the workspace version (a test keeps them equal).
default_version=v0.2.0
releases=${CHARTER_HARNESS_RELEASES_URL:-https://github.com/charter-harness/charter-harness/releases/download}
version=${CHARTER_HARNESS_VERSION:-$default_version}
dir=${CHARTER_HARNESS_INSTALL_DIR:-${HOME:-}/.local/bin}

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
    --to) [ $# -ge 2 ] || die "--to needs a folder"; dir=$2; shift 2 ;;
    --to=*) dir=${1#--to=}; shift ;;
    --version) [ $# -ge 2 ] || die "--version needs a tag (v0.2.0)"; version=$2; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    -h | --help) sed -n '2,17p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (--to DIR, --version TAG)" ;;
  esac
done

case $version in
  v[0-9]*) ;;
  [0-9]*) version=v$version ;;
  *) die "--version: '$version' is not a release tag such as v0.2.0" ;;
esac
case $version in
  *[!A-Za-z0-9._-]*) die "--version: '$version' is not a release tag such as v0.2.0" ;;
esac
[ -n "$dir" ] || die "no folder to install into: give --to DIR (HOME is not set)"

# The release archives' targets (release.yml): static musl binaries on Linux, Apple's on macOS.
os=$(uname -s)
arch=$(uname -m)
case "$os-$arch" in
  Linux-x86_64 | Linux-amd64) target=x86_64-unknown-linux-musl ;;
  Linux-aarch64 | Linux-arm64) target=aarch64-unknown-linux-musl ;;
  Darwin-arm64 | Darwin-aarch64) target=aarch64-apple-darwin ;;
  Darwin-x86_64) target=x86_64-apple-darwin ;;
  *) die "no release archive for $os $arch: build from source (cargo install --locked --git https://github.com/charter-harness/charter-harness --tag $version harness)" ;;
esac

name="harness-$version-$target.tar.gz"
url="$releases/$version/$name"

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 3 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  die "neither sha256sum nor shasum is installed: the checksum cannot be checked"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t charter-harness)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "downloading $url"
fetch "$url" "$tmp/$name" || die "could not download $url (is $version a release with an archive for $target?)"
fetch "$url.sha256" "$tmp/$name.sha256" || die "could not download $url.sha256: without it the archive cannot be checked"

# The .sha256 holds "HASH  NAME": the hash is compared with the archive's own, never taken
# from a file name the .sha256 could point elsewhere.
expected=$(head -n 1 "$tmp/$name.sha256" | cut -d ' ' -f 1 | tr 'A-F' 'a-f')
case $expected in
  *[!0-9a-f]*) die "$name.sha256 does not hold a SHA-256" ;;
esac
[ ${#expected} -eq 64 ] || die "$name.sha256 does not hold a SHA-256"
actual=$(sha256 "$tmp/$name")
if [ "$actual" != "$expected" ]; then
  die "checksum mismatch for $name: expected $expected, got $actual; nothing was installed"
fi
say "checksum verified: sha256 $actual"

mkdir "$tmp/x"
tar -xzf "$tmp/$name" -C "$tmp/x" harness || die "$name holds no harness binary"
if [ -L "$tmp/x/harness" ] || [ ! -f "$tmp/x/harness" ]; then
  die "$name: harness is not a regular file"
fi

mkdir -p "$dir" || die "could not create $dir"
# Copied beside its place, then renamed over it: a running harness is never half-written.
cp "$tmp/x/harness" "$dir/.harness.install.$$" || die "could not write into $dir"
chmod 755 "$dir/.harness.install.$$"
mv -f "$dir/.harness.install.$$" "$dir/harness" || {
  rm -f "$dir/.harness.install.$$"
  die "could not install $dir/harness"
}
say "installed $dir/harness ($version, $target)"
case ":${PATH:-}:" in
  *":$dir:"*) ;;
  *) say "$dir is not on PATH: add it (export PATH=\"$dir:\$PATH\") to run harness by name" ;;
esac
say "manual pages and shell completions: harness man, harness completions SHELL"
