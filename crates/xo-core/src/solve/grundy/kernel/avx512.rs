//! The AVX-512 kernel of the filtered pass (x86_64 with BW, VBMI for the byte permute, BITALG for
//! the bit pick, VBMI2 for the compress, and POPCNT): 64 splits per lookup, the table held in
//! `2 P` registers, and the hits written out compressed. Only reached through
//! [`Kernel::Avx512`](super::Kernel::Avx512), whose token proves the CPU has every instruction.

use super::super::scan::{high_byte, low_byte, SplitSide};
use super::sizes::MAX_BLOCK;
/// Splits from which the kernel notes the groups that hit instead of branching on each.
const DENSE: usize = 8192;
/// Splits ahead of the pass that [`prefetch`] asks for (0: none).
const PREFETCH: usize = 512;
use std::arch::x86_64::*;

/// The table of the values below `limit` not yet marked in `seen`, a bit per value, as
/// `u64` words.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn unseen_bits(seen: &[u8], limit: usize, table: &mut [u64]) -> bool {
    let zero = _mm512_setzero_si512();
    let mut any = 0;
    for (i, (w, chunk)) in table.iter_mut().zip(seen.chunks_exact(64)).enumerate() {
        // SAFETY: `chunk` holds exactly 64 bytes.
        let bytes = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
        let below = match limit.saturating_sub(64 * i) {
            0 => 0,
            k if k >= 64 => u64::MAX,
            k => (1 << k) - 1,
        };
        *w = _mm512_cmpeq_epi8_mask(bytes, zero) & below;
        any |= *w;
    }
    any != 0
}

/// Loads the table as `2 P` vectors of 32 words.
#[target_feature(enable = "avx512f,avx512bw")]
fn load<const P: usize>(table: &[u64; 64], t: &mut [__m512i; 8]) {
    for (j, v) in t.iter_mut().enumerate().take(2 * P) {
        // SAFETY: 8 words from 8 * j, with j < 8, lie inside the 64 words of the table.
        *v = unsafe { _mm512_loadu_si512(table.as_ptr().add(8 * j).cast()) };
    }
}

/// For the 64 splits from `at`: the mask of those whose XOR (below `1024 P`) is set in the
/// table `t`, and the XORs' two planes. `lo` holds the planes of the splits' first parts (read
/// by the caller, as heaps may share them), `hi` those of their second parts. The XOR's
/// [`high_byte`](super::super::scan::high_byte) picks the table's byte (`vpermi2b`, 128
/// bytes per pair of registers, bit 7 choosing the pair), and its low byte the bit within it
/// (`vpshufbitqmb` picks a bit of each 64-bit lane, so the low byte is offset to its own
/// byte of the lane).
///
/// # Safety
/// Both planes of `hi` must hold at least `at + 64` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
#[inline]
unsafe fn lookup<const P: usize>(
    lo: [__m512i; 2],
    hi: &[&[u8]; 2],
    at: usize,
    t: &[__m512i; 8],
) -> (u64, __m512i, __m512i) {
    debug_assert!(hi.iter().all(|p| at + 64 <= p.len()));
    // Byte j of a 64-bit lane sits at bits 8 (j % 8) of it.
    let offsets = _mm512_set1_epi64(0x3830_2820_1810_0800);
    // SAFETY: the caller guarantees 64 bytes from `at` in both planes.
    let [hh, lh] = unsafe { load_at(hi, at) };
    let high = _mm512_xor_si512(lo[0], hh);
    // (ll ^ lh) | offsets: the bit of the XOR within its byte, placed in the byte's lane.
    let low = _mm512_ternarylogic_epi32::<0xBE>(lo[1], lh, offsets);
    let mut w = _mm512_permutex2var_epi8(t[0], high, t[1]);
    if P >= 2 {
        let bit10 = _mm512_movepi8_mask(high);
        let w1 = _mm512_permutex2var_epi8(t[2], high, t[3]);
        w = _mm512_mask_blend_epi8(bit10, w, w1);
        if P == 4 {
            let w2 = _mm512_permutex2var_epi8(t[4], high, t[5]);
            let w3 = _mm512_permutex2var_epi8(t[6], high, t[7]);
            let upper = _mm512_mask_blend_epi8(bit10, w2, w3);
            let bit11 = _mm512_test_epi8_mask(low, _mm512_set1_epi8(0x40));
            w = _mm512_mask_blend_epi8(bit11, w, upper);
        }
    }
    (bit_select(w, low), high, low)
}

/// 64 bytes from `at` of each of two planes.
///
/// # Safety
/// Both planes must hold at least `at + 64` bytes.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn load_at(planes: &[&[u8]; 2], at: usize) -> [__m512i; 2] {
    // SAFETY: the caller guarantees 64 bytes from `at` in both planes.
    unsafe { planes.map(|p| _mm512_loadu_si512(p.as_ptr().add(at).cast::<__m512i>())) }
}

/// For each byte `j`, the bit of the 64-bit lane of `bits` holding it that `index[j] & 63`
/// names (`vpshufbitqmb`).
///
/// Written out rather than `_mm512_bitshuffle_epi64_mask` for the reason given at
/// [`compress_bytes`]: that intrinsic enables only BITALG, not the BW its 64-bit mask needs.
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg")]
#[inline]
fn bit_select(bits: __m512i, index: __m512i) -> u64 {
    let m: u64;
    // SAFETY: the instruction only reads the two registers and writes the mask; the CPU has
    // BITALG (this function enables it and is only called from kernels that check for it).
    unsafe {
        std::arch::asm!(
            "vpshufbitqmb {m}, {bits}, {index}",
            m = lateout(kreg) m,
            bits = in(zmm_reg) bits,
            index = in(zmm_reg) index,
            options(pure, nomem, nostack),
        );
    }
    m
}

/// Asks for `lines` cache lines from `at` of each plane to be brought into L1: the hardware
/// prefetcher alone keeps the pass waiting on L2.
#[target_feature(enable = "avx512f")]
#[inline]
fn prefetch(planes: [&[u8]; 4], at: usize, lines: usize) {
    for p in planes {
        for k in 0..lines {
            // `wrapping_add` keeps the address well defined past the end; a prefetch never
            // faults.
            _mm_prefetch::<_MM_HINT_T0>(p.as_ptr().wrapping_add(at + 64 * k).cast());
        }
    }
}

/// Writes the hits among the 64 splits whose XORs have the planes `high` and `low` (those
/// selected by `m`), packed, to `hits` from `fill`: their table bytes (`high`) in the first
/// half, and in the second what [`clear_hits`] needs besides: for tables of up to 2048 bits
/// the bit to clear in that byte (none for an XOR of 2048 or more, which lies outside), else
/// `low`. Returns the new fill.
///
/// # Safety
/// Each half of `hits` must hold at least `fill + 64` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
#[inline]
unsafe fn compress_at<const P: usize>(
    hits: &mut [u8],
    fill: usize,
    m: u64,
    high: __m512i,
    low: __m512i,
) -> usize {
    let half = hits.len() / 2;
    debug_assert!(fill + 64 <= half);
    let second = if P < 4 {
        // 1 << (low & 7), by a lookup on the low nibble; adding 0x40 carries bit 11 of the
        // XOR (bit 6 of `low`) into bit 7, for which the lookup gives 0.
        let bit = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
        _mm512_shuffle_epi8(bit, _mm512_add_epi8(low, _mm512_set1_epi8(0x40)))
    } else {
        low
    };
    // SAFETY: the caller guarantees room for 64 bytes from `fill` in each half.
    unsafe {
        let p = hits.as_mut_ptr().add(fill);
        _mm512_storeu_si512(p.cast(), compress_bytes(m, high));
        _mm512_storeu_si512(p.add(half).cast(), compress_bytes(m, second));
    }
    fill + m.count_ones() as usize
}

/// The second byte [`compress_at`] writes for the XOR `v` (below 4096).
fn second_byte<const P: usize>(v: u16) -> u8 {
    match P {
        4 => low_byte(v),
        _ if v < 2048 => 1 << (v & 7),
        _ => 0,
    }
}

/// Clears from `table` the values of the hits written by [`compress_at`] (`high` and
/// `second`, one byte each per hit).
fn clear_hits<const P: usize>(table: &mut [u64; 64], high: &[u8], second: &[u8]) {
    // Cleared a byte at a time: hits repeat values, and a clear waits for the last one to
    // the same memory, so narrower units make shorter waits.
    // SAFETY: `[u64; 64]` and `[u8; 512]` have one size, any bytes are valid `u8`s, and `u8`
    // needs no alignment; the table is not otherwise used meanwhile.
    let bytes = unsafe { &mut *(table as *mut [u64; 64]).cast::<[u8; 512]>() };
    if P < 4 {
        for (&b, &bit) in high.iter().zip(second) {
            bytes[b as usize] &= !bit;
        }
    } else {
        for (&b, &l) in high.iter().zip(second) {
            let at = b as usize | ((l & 0x40) as usize) << 2;
            bytes[at] &= !(1u8 << (l & 7));
        }
    }
}

/// The bytes of `a` selected by `m`, packed at the start (`vpcompressb`, zeroing the rest).
///
/// Written out rather than `_mm512_maskz_compress_epi8`: that intrinsic enables only VBMI2,
/// and where it is not inlined LLVM cannot move its 64-bit mask (which needs BW) and aborts
/// ("Cannot emit physreg copy instruction", seen in release doctests).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
#[inline]
fn compress_bytes(m: u64, a: __m512i) -> __m512i {
    let packed: __m512i;
    // SAFETY: the instruction only reads the two registers and writes the third; the CPU has
    // VBMI2 (this function enables it and is only called from kernels that check for it).
    unsafe {
        std::arch::asm!(
            "vpcompressb {packed}{{{m}}}{{z}}, {a}",
            packed = lateout(zmm_reg) packed,
            m = in(kreg) m,
            a = in(zmm_reg) a,
            options(pure, nomem, nostack),
        );
    }
    packed
}

/// See [`super::Kernel::mark_options`]: `H` heaps at once (one, or two sharing the first parts of
/// their splits), each with its own table and its own part of `hits`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx512bitalg,popcnt")]
pub(super) fn mark<const P: usize, const H: usize>(
    lo: &SplitSide,
    hi: &[SplitSide; H],
    tables: &mut [[u64; 64]; H],
    hits: &mut [u8],
    count: &mut u64,
) {
    let len = lo.values.len();
    assert!(hi.iter().all(|h| h.values.len() == len && h.len_ok()) && lo.len_ok());
    let region = hits.len() / H;
    assert!(region >= 2 * (MAX_BLOCK + 64));
    let mut regions = hits.chunks_exact_mut(region);
    let hits: [&mut [u8]; H] = std::array::from_fn(|_| regions.next().expect("H regions"));
    let words = 16 * P;
    let mut t = [[_mm512_setzero_si512(); 8]; H];
    for h in 0..H {
        load::<P>(&tables[h], &mut t[h]);
    }
    let mut open: [bool; H] = std::array::from_fn(|h| tables[h][..words].iter().any(|&w| w != 0));
    // Vectors of 64 splits per heap between two checks for hits: 256 splits for one heap,
    // 128 for two (registers run short beyond).
    let group = 4 / H;
    let (mut i, mut block) = (0, super::sizes::FIRST_BLOCK);
    // The starts of the groups of a block that hit (see below).
    let mut groups = [0u32; MAX_BLOCK / 128 + 1];
    while i < len {
        let end = (i + block).min(len);
        block = (2 * block).min(MAX_BLOCK);
        let mut fill = [0; H];
        // SAFETY (every `unsafe` block of this loop): every plane has `len` bytes and every
        // read of 64 bytes starts at most at `end - 64 <= len - 64`. Every write of 64
        // bytes into a half of a heap's region of `hits` starts at its `fill`, at most the
        // number of splits looked at so far in this block (at most `MAX_BLOCK`), and each
        // half holds `MAX_BLOCK + 64`.
        // A group of `group` vectors per heap from `at`: the lookups, and whether any hit.
        let look = |at: usize| {
            let mut r = [[(0, _mm512_setzero_si512(), _mm512_setzero_si512()); H]; 4];
            let mut any = 0;
            for (k, found) in r.iter_mut().enumerate().take(group) {
                let at = at + 64 * k;
                let shared = unsafe { load_at(&lo.planes, at) };
                for (h, f) in found.iter_mut().enumerate() {
                    *f = unsafe { lookup::<P>(shared, &hi[h].planes, at, &t[h]) };
                    any |= f.0;
                }
            }
            (r, any)
        };
        // Early on most groups hit, and a branch per group is cheap; later hits are rare
        // and scattered, so the groups that hit are noted without a branch (which would
        // mispredict on each) and looked up again after the block.
        let dense = i < DENSE;
        let mut noted = 0;
        while i + 64 * group <= end {
            if PREFETCH > 0 {
                let planes = [lo.planes[0], lo.planes[1], hi[0].planes[0], hi[0].planes[1]];
                prefetch(planes, i + PREFETCH, group);
            }
            let (r, any) = look(i);
            if dense {
                if any != 0 {
                    for found in &r[..group] {
                        for (h, &(m, high, low)) in found.iter().enumerate() {
                            fill[h] = unsafe { compress_at::<P>(hits[h], fill[h], m, high, low) };
                        }
                    }
                }
            } else {
                groups[noted] = i as u32;
                noted += usize::from(any != 0);
            }
            i += 64 * group;
        }
        for &at in &groups[..noted] {
            let (r, _) = look(at as usize);
            for found in &r[..group] {
                for (h, &(m, high, low)) in found.iter().enumerate() {
                    fill[h] = unsafe { compress_at::<P>(hits[h], fill[h], m, high, low) };
                }
            }
        }
        while i + 64 <= end {
            let shared = unsafe { load_at(&lo.planes, i) };
            for h in 0..H {
                let (m, high, low) = unsafe { lookup::<P>(shared, &hi[h].planes, i, &t[h]) };
                fill[h] = unsafe { compress_at::<P>(hits[h], fill[h], m, high, low) };
            }
            i += 64;
        }
        while i < end {
            for h in 0..H {
                let v = lo.values[i] ^ hi[h].values[i];
                if tables[h][(v >> 6) as usize] >> (v & 63) & 1 != 0 {
                    let half = region / 2;
                    hits[h][fill[h]] = high_byte(v);
                    hits[h][half + fill[h]] = second_byte::<P>(v);
                    fill[h] += 1;
                }
            }
            i += 1;
        }
        for h in 0..H {
            if fill[h] == 0 {
                continue;
            }
            let (table, found) = (&mut tables[h], &hits[h]);
            *count += fill[h] as u64;
            let (high, second) = found.split_at(region / 2);
            clear_hits::<P>(table, &high[..fill[h]], &second[..fill[h]]);
            open[h] = table[..words].iter().any(|&w| w != 0);
            load::<P>(table, &mut t[h]);
        }
        if open.iter().all(|&o| !o) {
            break;
        }
    }
}
