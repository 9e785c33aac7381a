//! Tests of the meter, its reservations and the ticker working together: limits, threads,
//! cancellation and helpers.

use std::time::Duration;

use super::*;

#[test]
fn a_zero_timeout_stops_at_the_first_check() {
    let meter = Meter::new(Budget::default().with_timeout(Duration::ZERO));
    let stopped = meter.tick(1).unwrap_err();
    assert_eq!(stopped.limit, Limit::Time);
    // Every later check fails too, with the same limit.
    assert_eq!(meter.check().unwrap_err().limit, Limit::Time);
}

#[test]
fn nodes_are_counted_across_threads() {
    let meter = Meter::new(Budget::default().with_max_nodes(10_000));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| while meter.tick(1).is_ok() {});
        }
    });
    assert_eq!(meter.check().unwrap_err().limit, Limit::Nodes);
    assert!(meter.nodes() > 10_000);
}

#[test]
fn the_first_limit_reached_is_the_one_reported() {
    let meter = Meter::new(Budget::default().with_memory(100));
    assert_eq!(meter.reserve(101).unwrap_err().limit, Limit::Memory);
    meter.cancel();
    assert_eq!(meter.tick(1).unwrap_err().limit, Limit::Memory);
}

#[test]
fn reservations_add_up_across_threads_and_are_given_back() {
    let meter = Meter::new(Budget::default().with_memory(1000));
    // Two tables of 400 fit; a third does not, from whichever thread asks.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| meter.reserve(400).unwrap());
        let helper = meter.helper();
        let b = s.spawn(move || helper.reserve(400).unwrap());
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(meter.reserved(), 800);
    assert_eq!(meter.reserve(400).unwrap_err().limit, Limit::Memory);
    drop((a, b));
    assert_eq!(meter.reserved(), 0);
}

#[test]
fn a_cancelled_job_says_it_was_cancelled() {
    let meter = Meter::new(Budget::default().with_max_nodes(1000));
    let mut ticker = Ticker::default();
    meter.clone().cancel();
    while !ticker.tick(&meter) {}
    let stopped = ticker.finish(&meter, ()).unwrap_err();
    assert_eq!(stopped.limit, Limit::Cancelled);
    assert!(stopped.to_string().starts_with("cancelled after"), "{stopped}");
    assert!(!stopped.to_string().contains("budget"), "{stopped}");
}

#[test]
fn a_helper_stop_does_not_stop_the_job_but_a_job_stop_stops_the_helpers() {
    let job = Meter::default();
    let helpers = job.helper();
    helpers.cancel();
    assert!(helpers.is_stopped() && !job.is_stopped());
    let more = job.helper();
    job.cancel();
    assert_eq!(more.check().unwrap_err().limit, Limit::Cancelled);
    assert!(job.is_stopped());
}

#[test]
fn huge_budgets_do_not_overflow() {
    let meter =
        Meter::new(Budget { max_nodes: u64::MAX, timeout: Duration::MAX, memory_bytes: u64::MAX });
    assert!(meter.tick(u64::MAX).is_ok());
    assert!(meter.tick(u64::MAX).is_ok());
    assert!(meter.reserve(u64::MAX).is_ok());
}
