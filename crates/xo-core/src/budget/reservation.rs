//! Memory reservations: how a job asks its meter for the bytes of a table before allocating it.
//!
//! A [`Reservation`] holds bytes against the job's memory budget until it is dropped; the
//! reservations of every table and thread of a job add up on the one meter they share.

use std::sync::atomic::Ordering;

use super::limits::{Limit, Stopped};
use super::meter::Meter;

impl Meter {
    /// Reserves `bytes` for a table about to be allocated, held until the [`Reservation`] is
    /// dropped. The reservations of a job add up, across its tables and threads (clones and
    /// helpers of one meter share them): fails with the memory limit when they would pass the
    /// budget.
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// let meter = Meter::new(Budget::default().with_memory(100));
    /// let first = meter.reserve(60).unwrap();
    /// // Each fits alone; both do not.
    /// assert_eq!(meter.clone().reserve(60).unwrap_err().limit, Limit::Memory);
    /// assert_eq!(meter.reserved(), 60);
    /// drop(first);
    /// assert_eq!(meter.reserved(), 0);
    /// ```
    pub fn reserve(&self, bytes: u64) -> Result<Reservation, Stopped> {
        let mut held = Reservation { meter: self.clone(), bytes: 0 };
        held.grow_to(bytes)?;
        Ok(held)
    }

    /// Bytes held now by the job's reservations.
    pub fn reserved(&self) -> u64 {
        self.inner.reserved.load(Ordering::Relaxed)
    }
}

/// Memory a job holds for a table, reserved on its [`Meter`] ([`Meter::reserve`]) and given
/// back when dropped. A table that grows asks for more with [`Reservation::grow_to`].
///
/// ```
/// use xo_core::budget::{Budget, Limit, Meter};
/// let meter = Meter::new(Budget::default().with_memory(100));
/// let mut table = meter.reserve(10).unwrap();
/// table.grow_to(90).unwrap();
/// assert_eq!((table.bytes(), meter.reserved()), (90, 90));
/// assert_eq!(table.grow_to(101).unwrap_err().limit, Limit::Memory);
/// assert_eq!(table.bytes(), 90);
/// ```
#[must_use = "a reservation is given back when dropped"]
#[derive(Debug)]
pub struct Reservation {
    meter: Meter,
    bytes: u64,
}

impl Reservation {
    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Holds `bytes` in all (more than before, or the same): fails with the memory limit, holding
    /// what it held, when the job's reservations would pass the budget.
    pub fn grow_to(&mut self, bytes: u64) -> Result<(), Stopped> {
        let Some(more) = bytes.checked_sub(self.bytes).filter(|&m| m > 0) else {
            return Ok(());
        };
        let inner = &self.meter.inner;
        let limit = inner.budget.memory_bytes;
        let grown = inner.reserved.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
            let total = held.saturating_add(more);
            (total <= limit).then_some(total)
        });
        if grown.is_err() {
            return Err(self.meter.halt(Limit::Memory));
        }
        self.bytes = bytes;
        Ok(())
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let bytes = self.bytes;
        let _ =
            self.meter.inner.reserved.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |h| {
                Some(h.saturating_sub(bytes))
            });
    }
}
