//! scratch
use xo_core::games::lol::LolStrip;
use xo_core::solve::lol::LolSolver;
fn main() {
    for n in 1..=40 {
        let t = std::time::Instant::now();
        let mut s = LolSolver::new();
        let v = s.value(&LolStrip::empty(n).unwrap());
        println!("{n} {v:?} {:?} {}", t.elapsed(), s.table_len());
    }
}
