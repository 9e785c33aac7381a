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
  cargo install wasm-bindgen-cli --version "$version" --locked \
    || cargo install wasm-bindgen-cli --version "$version"
fi

cargo_home=${CARGO_HOME:-$HOME/.cargo}
RUSTFLAGS="--remap-path-prefix=$root=/xo --remap-path-prefix=$cargo_home=/cargo" \
  cargo build -p xo-wasm --target wasm32-unknown-unknown --profile wasm --target-dir target/wasm
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
wasm-bindgen --target no-modules --no-typescript --out-dir "$out" \
  target/wasm/wasm32-unknown-unknown/wasm/xo_wasm.wasm
XO_WASM_HASH_OUT="$out/wasm.hash" cargo test -q -p xo-server --test wasm_artifact -- write_hash >/dev/null

if $check; then
  status=0
  for f in xo_wasm_bg.wasm xo_wasm.js wasm.hash; do
    cmp -s "$out/$f" "$page/$f" || { echo "$page/$f differs from what scripts/wasm.sh builds" >&2; status=1; }
  done
  exit $status
fi
cp "$out/xo_wasm_bg.wasm" "$out/xo_wasm.js" "$out/wasm.hash" "$page/"
ls -l "$page/xo_wasm_bg.wasm" "$page/xo_wasm.js"
echo "gzip: $(gzip -9 -c "$page/xo_wasm_bg.wasm" | wc -c) bytes"
