//! Answers already given, kept for the next request that asks the same: a page clicking through
//! a game asks the same few positions again and again, and an exact answer never changes. The
//! cache is bounded by the bytes of the answers it holds (least recently used first out), and
//! holds only complete answers (never a stop at a budget, which depends on the request's).

use lru::LruCache;
use std::sync::{Arc, Mutex};

/// A bounded map from a question to its JSON answer.
#[derive(Debug)]
pub struct AnswerCache {
    inner: Mutex<CacheState>,
    max_bytes: usize,
}

#[derive(Debug)]
struct CacheState {
    map: LruCache<String, Arc<str>>,
    bytes: usize,
}

impl AnswerCache {
    /// A cache holding at most `max_bytes` of keys and answers (0: none).
    pub fn new(max_bytes: usize) -> AnswerCache {
        AnswerCache {
            inner: Mutex::new(CacheState { map: LruCache::unbounded(), bytes: 0 }),
            max_bytes,
        }
    }

    /// The answer to `key`, if kept.
    pub fn get(&self, key: &str) -> Option<Arc<str>> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.map.get(key).cloned()
    }

    /// Keeps `answer` for `key`, dropping the least recently used answers beyond the bound.
    /// Answers larger than a sixteenth of the bound are not kept.
    pub fn put(&self, key: String, answer: Arc<str>) {
        let size = key.len() + answer.len();
        if size > self.max_bytes / 16 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = inner.map.put(key.clone(), answer) {
            inner.bytes -= key.len() + old.len();
        }
        inner.bytes += size;
        while inner.bytes > self.max_bytes {
            match inner.map.pop_lru() {
                Some((k, v)) => inner.bytes -= k.len() + v.len(),
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_holds_and_recent_answers_stay() {
        let cache = AnswerCache::new(16 * 100);
        for i in 0..100 {
            cache.put(format!("k{i:03}"), Arc::from("x".repeat(90)));
            let inner = cache.inner.lock().unwrap();
            assert!(inner.bytes <= 1600);
        }
        assert!(cache.get("k099").is_some());
        assert!(cache.get("k000").is_none());
        // Too large to keep.
        cache.put("big".into(), Arc::from("y".repeat(200)));
        assert!(cache.get("big").is_none());
    }
}
