//! The fault hook for tests (a rank that exits abruptly), in a file of its own so that the
//! exchange, where the rank exits, takes it from here rather than from the module that runs it.

/// The environment variable of the fault hook for tests: `TIER:RANK` makes that rank exit
/// abruptly (status [`FAULT_EXIT`], no clean shutdown) after its first round of that tier.
pub const FAIL_AT: &str = "XO_MPI_FAIL_AT";

/// The exit status of a rank killed by the fault hook ([`FAIL_AT`]): none of the CLI's own
/// statuses (0 to 3), so a test can tell the hook fired.
pub const FAULT_EXIT: i32 = 86;

/// `XO_MPI_FAIL_AT=TIER:RANK`, when set and well formed.
pub(super) fn fault_hook() -> Option<(u32, usize)> {
    let text = std::env::var(FAIL_AT).ok()?;
    let (t, r) = text.split_once(':')?;
    Some((t.trim().parse().ok()?, r.trim().parse().ok()?))
}
