#!/usr/bin/env bash
# The other platforms, from this Linux x86-64 machine: the whole workspace (every crate, tests and
# benches included, default features: no MPI) type-checked, warnings denied, for Windows
# (x86_64-pc-windows-gnu) and Linux on ARM (aarch64-unknown-linux-gnu), and the crates whose code
# depends on the OS (xo-core, xo-store) for macOS on ARM (aarch64-apple-darwin); then the core's
# Grundy tests built for aarch64 Linux and run under qemu-aarch64, with XO_REQUIRE_NEON=1 so that
# they fail if the NEON kernel does not run. Installs the three rustup targets and Debian's
# qemu-user and gcc-aarch64-linux-gnu (the linker and the C library qemu runs the tests with) when
# missing. Builds in target/cross, apart from the host's build. Any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's start, in seconds since the script began.
step() { echo "cross: +${SECONDS}s: $*" >&2; }

targets=(x86_64-pc-windows-gnu aarch64-unknown-linux-gnu aarch64-apple-darwin)
installed="$(rustup target list --installed)"
missing=()
for t in "${targets[@]}"; do
  grep -qx "$t" <<<"$installed" || missing+=("$t")
done
if [ "${#missing[@]}" -gt 0 ]; then
  rustup target add "${missing[@]}"
fi

need=()
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
# The C library to link against and run with (a recommendation of the compiler's).
[ -e /usr/aarch64-linux-gnu/lib/crt1.o ] || need+=(libc6-dev-arm64-cross)
if [ "${#need[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

export CARGO_TARGET_DIR=target/cross
# Code behind a cfg gate of another platform gets no warning on the host: denied here. (Only
# the workspace's crates: cargo caps the dependencies' lints.)
export RUSTFLAGS="-D warnings"

# Type-checked only: linking needs each platform's linker and system libraries (macOS's SDK
# cannot be had here). xo-py's PyO3 (abi3) needs no Python of the target to be checked. The
# tests that plant FIFOs, devices and symbolic links are cfg(unix).
# Windows and Linux on ARM: the whole workspace (Windows: its cfg(unix)/cfg(windows) gates;
# ARM: every crate and dependency on aarch64, the cfg(target_arch) gates).
for t in x86_64-pc-windows-gnu aarch64-unknown-linux-gnu; do
  step "cargo check, $t"
  cargo check --workspace --all-targets --target "$t"
done
# macOS on ARM differs from Linux on ARM only in the target OS: the workspace's code that depends
# on it (cfg(target_os), the C library's flags under cfg(unix)) is in xo-core and xo-store alone
# (the other crates' cfg(unix) code uses std's Unix API, the same on both), so those two are
# checked, every target (tests, benches, examples); the rest was checked for aarch64 above.
step "cargo check, aarch64-apple-darwin (xo-core, xo-store)"
cargo check -p xo-core -p xo-store --all-targets --target aarch64-apple-darwin

# The Grundy engine on aarch64, its NEON kernel run by qemu (a user-mode emulator: the test
# binaries run as Linux programs, their system calls passed to this kernel). The lib tests under
# solve::grundy and tests/grundy.rs (the module grundy of the core's one test binary) only
# (about 3 minutes with the build): the whole core suite takes too long under emulation for CI
# (its tests ran 828 s here, 2026-12-06). Doctests are left out (they would need building one by
# one for aarch64). The x86
# kernels' requirements (.ci/run sets them on a CPU that has them) and a cap on the kernel
# (XO_GRUNDY_KERNEL) are dropped: NEON is the one required here.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
unset XO_REQUIRE_AVX512 XO_REQUIRE_AVX2 XO_GRUNDY_KERNEL
export XO_REQUIRE_NEON=1
step "xo-core's Grundy tests on aarch64 under qemu (lib tests under solve::grundy)"
cargo test -p xo-core --target aarch64-unknown-linux-gnu --lib solve::grundy
# Less one test timed by the wall clock (so much work within 1.5 s, calibrated for a native
# CPU), which emulation, several times slower, fails at random: it checks that the worker threads
# stop on time, which runs natively in the test suite.
step "xo-core's Grundy tests on aarch64 under qemu (tests/grundy.rs)"
cargo test -p xo-core --target aarch64-unknown-linux-gnu --test all -- grundy:: \
  --skip the_worker_threads_stop_promptly_when_the_meter_does
step done
