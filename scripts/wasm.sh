#!/usr/bin/env bash
# Builds the page's WebAssembly core (crates/xo-wasm for wasm32-unknown-unknown, then
# wasm-bindgen's glue for a classic worker) into crates/xo-server/page/: xo_wasm_bg.wasm,
# xo_wasm.js and wasm.hash (the hash of the sources it was built from, which the test
# crates/xo-server/tests/wasm_artifact.rs compares with the sources of the checkout).
# The files are committed, so that `cargo build` needs no WebAssembly toolchain; run this after
# changing xo-core or xo-wasm.
#   scripts/wasm.sh          rebuild and write the files
#   scripts/wasm.sh --check  rebuild elsewhere and fail unless the committed files are the same
# Installs the wasm32 target and wasm-bindgen-cli (the version of the wasm-bindgen crate in
# Cargo.lock) when missing. Paths are remapped, so the bytes do not depend on where the
# checkout or the cargo home is.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
page=crates/xo-server/page
check=false
[ "${1:-}" = --check ] && check=true

version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  # --locked first; without it when a locked dependency of the tool is not on the registry.
  # Without its default features: no TLS for the test runner's downloads (rustls and ring, which
  # this script never uses), a quarter less to compile on a fresh machine (154 s against about
  # 200 s on two cores, 2026-12-07).
  cargo install wasm-bindgen-cli --version "$version" --locked --no-default-features \
    || cargo install wasm-bindgen-cli --version "$version" --no-default-features
fi

cargo_home=${CARGO_HOME:-$HOME/.cargo}
RUSTFLAGS="--remap-path-prefix=$root=/xo --remap-path-prefix=$cargo_home=/cargo" \
  cargo build -p xo-wasm --target wasm32-unknown-unknown --profile wasm --target-dir target/wasm
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
wasm-bindgen --target no-modules --no-typescript --out-dir "$out" \
  target/wasm/wasm32-unknown-unknown/wasm/xo_wasm.wasm
# The sources' hash, as crates/xo-server/tests/wasm_artifact.rs computes it: CRC-32 (from
# gzip's trailer) of each file's path, NUL, length, NUL and bytes, in byte order of the paths.
files=$( { printf '%s\n' Cargo.toml Cargo.lock crates/xo-core/Cargo.toml crates/xo-wasm/Cargo.toml
           find crates/xo-core/src crates/xo-wasm/src -type f; } | LC_ALL=C sort)
crc=$(for f in $files; do printf '%s\0%s\0' "$f" "$(stat -c %s "$f")"; cat "$f"; done \
  | gzip -1 -c | tail -c8 | head -c4 | od -An -tx4 | tr -d ' \n')
echo "crc32 $crc over $(printf '%s\n' "$files" | wc -l) files" > "$out/wasm.hash"

if $check; then
  status=0
  for f in xo_wasm_bg.wasm xo_wasm.js wasm.hash; do
    cmp -s "$out/$f" "$page/$f" || { echo "$page/$f differs from what scripts/wasm.sh builds" >&2; status=1; }
  done
  size=$(gzip -9 -c "$page/xo_wasm_bg.wasm" | wc -c)
  if [ "$size" -gt $((1 << 20)) ]; then
    echo "the WebAssembly core is $size bytes gzipped, more than 1 MiB" >&2
    status=1
  fi
  exit $status
fi
cp "$out/xo_wasm_bg.wasm" "$out/xo_wasm.js" "$out/wasm.hash" "$page/"
ls -l "$page/xo_wasm_bg.wasm" "$page/xo_wasm.js"
echo "gzip: $(gzip -9 -c "$page/xo_wasm_bg.wasm" | wc -c) bytes"
