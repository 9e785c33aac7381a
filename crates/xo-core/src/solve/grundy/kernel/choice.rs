//! Which kernel of the filtered pass runs: the public names ([`PassKernel`]), what the running
//! CPU offers, and the `XO_GRUNDY_KERNEL` cap that forces a weaker one.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The environment variable that caps the kernel [`PassKernel::best`] chooses.
pub(crate) const KERNEL_VARIABLE: &str = "XO_GRUNDY_KERNEL";

/// A kernel of the Grundy engine's filtered pass (see
/// [`NimSequence`](crate::solve::grundy::NimSequence)): which instructions its lookups use.
/// Every kernel gives the same values; they differ in speed, and in the CPUs they run on.
///
/// ```
/// use xo_core::solve::grundy::PassKernel;
/// let best = PassKernel::best();
/// assert!(best.is_available());
/// assert!(PassKernel::available().contains(&best));
/// assert_eq!("avx2".parse::<PassKernel>(), Ok(PassKernel::Avx2));
/// assert_eq!(PassKernel::Avx512.to_string(), "avx512");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassKernel {
    /// Plain Rust, on any CPU (the reference the others are tested against).
    Scalar,
    /// NEON (Advanced SIMD), on every aarch64 CPU: Apple Silicon, Graviton, Raspberry Pi 4/5.
    Neon,
    /// AVX2, on x86_64 CPUs since Intel Haswell (2013) and AMD Zen (2017).
    Avx2,
    /// AVX-512 with BW, VBMI, VBMI2 and BITALG: Intel Ice Lake and later server and (till Rocket
    /// Lake) client CPUs, AMD Zen 4 and later.
    Avx512,
}

impl PassKernel {
    /// Every kernel, fastest first.
    pub const ALL: [PassKernel; 4] =
        [PassKernel::Avx512, PassKernel::Avx2, PassKernel::Neon, PassKernel::Scalar];

    /// Its name, as `XO_GRUNDY_KERNEL` and the bench take it.
    ///
    /// ```
    /// use xo_core::solve::grundy::PassKernel;
    /// assert_eq!(PassKernel::Neon.name(), "neon");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            PassKernel::Scalar => "scalar",
            PassKernel::Neon => "neon",
            PassKernel::Avx2 => "avx2",
            PassKernel::Avx512 => "avx512",
        }
    }

    /// Strength, for the cap: scalar 0, the 128/256-bit kernels 1, AVX-512 2.
    pub(crate) fn rank(self) -> u8 {
        match self {
            PassKernel::Scalar => 0,
            PassKernel::Neon | PassKernel::Avx2 => 1,
            PassKernel::Avx512 => 2,
        }
    }

    /// Whether the running CPU has the instructions of this kernel.
    ///
    /// ```
    /// use xo_core::solve::grundy::PassKernel;
    /// assert!(PassKernel::Scalar.is_available());
    /// // Never both: they belong to different architectures.
    /// assert!(!(PassKernel::Avx2.is_available() && PassKernel::Neon.is_available()));
    /// ```
    pub fn is_available(self) -> bool {
        self.unavailable_reason().is_none()
    }

    /// Why this kernel cannot run here (the architecture, or the instructions the CPU lacks),
    /// or `None` when it can. Tests print it when they skip a kernel.
    ///
    /// ```
    /// use xo_core::solve::grundy::PassKernel;
    /// assert_eq!(PassKernel::Scalar.unavailable_reason(), None);
    /// for k in PassKernel::ALL {
    ///     assert_eq!(k.unavailable_reason().is_none(), k.is_available());
    /// }
    /// ```
    pub fn unavailable_reason(self) -> Option<String> {
        match self {
            PassKernel::Scalar => None,
            PassKernel::Avx2 => x86_missing(&["avx2", "popcnt"]),
            PassKernel::Avx512 => x86_missing(&[
                "avx512f",
                "avx512bw",
                "avx512vbmi",
                "avx512vbmi2",
                "avx512bitalg",
                "popcnt",
            ]),
            PassKernel::Neon => {
                if cfg!(target_arch = "aarch64") {
                    None
                } else {
                    Some("the NEON kernel needs aarch64".to_string())
                }
            }
        }
    }

    /// The kernels the running CPU has, fastest first (the scalar one last, always there).
    ///
    /// ```
    /// use xo_core::solve::grundy::PassKernel;
    /// assert_eq!(PassKernel::available().last(), Some(&PassKernel::Scalar));
    /// ```
    pub fn available() -> Vec<PassKernel> {
        PassKernel::ALL.into_iter().filter(|k| k.is_available()).collect()
    }

    /// The kernel the engine uses: the fastest the running CPU has, unless the environment
    /// variable `XO_GRUNDY_KERNEL` names a weaker one (`avx2`, `neon`, `scalar`; read once per
    /// process), which is then used, or the fastest below it that the CPU has. With `scalar`
    /// the default method does not use the filtered pass at all (its other methods are faster
    /// than the scalar kernel), as on a CPU with no vector kernel. A value that names no kernel
    /// is ignored here; the `xo` command refuses it ([`PassKernel::cap_from_env`]).
    ///
    /// ```
    /// use xo_core::solve::grundy::PassKernel;
    /// assert!(PassKernel::best().is_available());
    /// ```
    pub fn best() -> PassKernel {
        static BEST: OnceLock<PassKernel> = OnceLock::new();
        *BEST.get_or_init(|| {
            // At most as strong as the cap; the kernels of one strength belong to different
            // architectures, so the fastest within it is the one named where the CPU has it.
            let cap = PassKernel::cap_from_env().ok().flatten().map_or(u8::MAX, PassKernel::rank);
            PassKernel::available()
                .into_iter()
                .find(|k| k.rank() <= cap)
                .unwrap_or(PassKernel::Scalar)
        })
    }

    /// The cap `XO_GRUNDY_KERNEL` sets: `Ok(None)` when it is unset or empty, `Err` with a
    /// message naming the variable and the kernels when it names none.
    ///
    /// ```
    /// use xo_core::solve::grundy::PassKernel;
    /// // Whatever the environment holds, `best` stays within what the CPU has.
    /// if let Ok(Some(cap)) = PassKernel::cap_from_env() {
    ///     assert!(PassKernel::best() == cap || !cap.is_available());
    /// }
    /// ```
    pub fn cap_from_env() -> Result<Option<PassKernel>, String> {
        match std::env::var(KERNEL_VARIABLE) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(format!("{KERNEL_VARIABLE} is not UTF-8; {}", PassKernel::expected()))
            }
            Ok(v) if v.trim().is_empty() => Ok(None),
            Ok(v) => v.trim().parse().map(Some).map_err(|e| format!("{KERNEL_VARIABLE}: {e}")),
        }
    }

    fn expected() -> String {
        let names: Vec<&str> = PassKernel::ALL.iter().map(|k| k.name()).collect();
        format!("expected one of {}", names.join(", "))
    }
}

impl fmt::Display for PassKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PassKernel {
    type Err = String;

    /// A kernel by its [`name`](PassKernel::name), in any case.
    fn from_str(s: &str) -> Result<Self, String> {
        PassKernel::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("{s:?} names no kernel; {}", PassKernel::expected()))
    }
}

/// `None` when the running CPU is x86_64 with every feature of `features`, else why not.
fn x86_missing(features: &[&str]) -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let has = |f: &str| match f {
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
            "avx512vbmi" => std::arch::is_x86_feature_detected!("avx512vbmi"),
            "avx512vbmi2" => std::arch::is_x86_feature_detected!("avx512vbmi2"),
            "avx512bitalg" => std::arch::is_x86_feature_detected!("avx512bitalg"),
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            _ => false,
        };
        let missing: Vec<&str> = features.iter().copied().filter(|f| !has(f)).collect();
        (!missing.is_empty()).then(|| format!("this CPU lacks {}", missing.join(", ")))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = features;
        Some("this kernel needs x86_64".to_string())
    }
}

/// Proof that the running CPU has every instruction the AVX-512 kernel uses: only
/// [`Avx512::detect`] makes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// The proof, if the running CPU has the instructions.
    pub fn detect() -> Option<Avx512> {
        PassKernel::Avx512.is_available().then_some(Avx512(()))
    }
}
