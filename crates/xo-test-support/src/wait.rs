//! Waiting for a condition, not for a time: a test that sleeps a fixed time before looking is
//! slow where the machine is fast and flaky where it is loaded; one that polls the condition it
//! needs goes on as soon as it holds, and names it when it never does.

use std::thread;
use std::time::{Duration, Instant};

/// Polls `ready` every 2 ms until it returns true; panics naming `what` if it still does not
/// after `limit`.
pub fn wait_until(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ready() {
        assert!(Instant::now() < deadline, "waited {limit:?} for {what}, in vain");
        thread::sleep(Duration::from_millis(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goes_on_as_soon_as_the_condition_holds() {
        let started = Instant::now();
        let mut polls = 0;
        wait_until("the third poll", Duration::from_secs(10), || {
            polls += 1;
            polls == 3
        });
        assert_eq!(polls, 3);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    #[should_panic(expected = "for something that never holds, in vain")]
    fn names_the_condition_past_the_limit() {
        wait_until("something that never holds", Duration::from_millis(20), || false);
    }
}
