//! `xo grundy GAME --upto N`: the nim-sequence of an octal game with its proven period, summary
//! figures, JSON output and a plot, the way combinatorial-game theorists look at these sequences.

use anyhow::{bail, Context, Result};
use plotters::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;
use xo_core::budget::{Budget, Limit, Meter};
use xo_core::games::octal::OctalGame;
use xo_core::solve::grundy::{find_period, max_heap, Grundy, NimSequence, Summary};

/// The largest `--upto` accepted (values take 4 bytes a heap).
pub const MAX_UPTO: usize = 100_000_000;

/// Arguments of `xo grundy`.
#[derive(Debug, Clone, clap::Args)]
pub struct GrundyArgs {
    /// The game: an octal or hexadecimal code (`octal:0.77`, `0.07`, `.137`, `4.07`, `0.F`) or a
    /// name (`kayles`, `dawson-kayles`, `treblecross` = .007).
    pub game: String,
    /// The largest heap (values are computed for heaps 0..=N).
    #[arg(long, value_name = "N")]
    pub upto: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write a plot of the values against n (SVG, or PNG if FILE ends in .png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Give up (exit status 2) once computing has taken this many seconds.
    #[arg(long, visible_alias = "timeout", value_name = "SECONDS", default_value_t = 600)]
    pub max_seconds: u64,
}

/// What `xo grundy --json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct GrundyReport {
    /// The game's code.
    pub game: String,
    /// The largest heap computed.
    pub upto: usize,
    /// Values of heaps 0..=upto.
    pub values: Vec<Grundy>,
    /// The least period, if proven by the Guy-Smith theorem from these values.
    pub period: Option<usize>,
    /// The preperiod that goes with `period`.
    pub preperiod: Option<usize>,
    /// The largest value.
    pub largest: Grundy,
    /// The least heap with the largest value.
    pub largest_at: usize,
    /// The sparse-space mask with the fewest rare heaps, if any.
    pub mask: Option<Grundy>,
    /// Whether the mask counts the heap's parity too (sparse space in the domain).
    pub mask_domain: bool,
    /// Heaps (of at least one token) with rare values.
    pub rare_heaps: usize,
    /// Heaps (of at least one token) with common values.
    pub common_heaps: usize,
    /// The distinct rare values.
    pub rare_values: Vec<Grundy>,
}

/// Computes the report for `game` up to heap `upto`, giving up after `max_time`.
///
/// ```
/// use std::time::Duration;
/// use xo_cli::grundy::report;
/// let r = report("kayles", 200, Duration::from_secs(60)).unwrap();
/// assert_eq!((r.period, r.preperiod), (Some(12), Some(71)));
/// assert!(report("0.7x", 10, Duration::from_secs(60)).is_err());
/// ```
pub fn report(game: &str, upto: usize, max_time: Duration) -> Result<GrundyReport> {
    let parsed: OctalGame = game.parse().with_context(|| format!("game '{game}'"))?;
    let limit = max_heap(&parsed).min(MAX_UPTO);
    if upto > limit {
        bail!("--upto {upto} is too large: at most {limit} for {parsed}");
    }
    let mut seq = NimSequence::new(parsed.clone());
    let meter = Meter::new(Budget::default().with_timeout(max_time));
    if let Err(stopped) = seq.extend_within(upto, &meter) {
        if stopped.limit != Limit::Time {
            bail!("{stopped}");
        }
        let next = seq.values().len();
        bail!(
            "gave up after {} s at heap {next} of {upto}: use a smaller --upto or a larger \
             --max-seconds",
            max_time.as_secs()
        );
    }
    let values = seq.values()[..=upto].to_vec();
    let period = find_period(&parsed, &values);
    let summary = Summary::of(&parsed, &values);
    Ok(GrundyReport {
        game: parsed.to_string(),
        upto,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        largest: summary.largest,
        largest_at: summary.largest_at,
        mask: summary.mask.map(|m| m.mask),
        mask_domain: summary.mask.is_some_and(|m| m.domain),
        rare_heaps: summary.rare_heaps,
        common_heaps: summary.common_heaps,
        rare_values: summary.rare_values,
        values,
    })
}

/// Writes the report as text: the values twenty to a line, then the period and summary figures.
///
/// ```
/// use std::time::Duration;
/// use xo_cli::grundy::{report, write_text};
/// let r = report("0.007", 15, Duration::from_secs(60)).unwrap();
/// let mut out = Vec::new();
/// write_text(&r, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("     0:  0 0 0 1 1 1 2 2 0 3 3 1 1 1 0 4\n"));
/// assert!(text.contains("no period up to 15"));
/// ```
pub fn write_text(r: &GrundyReport, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "nim-sequence of {} for heaps 0..={}", r.game, r.upto)?;
    for (row, chunk) in r.values.chunks(20).enumerate() {
        write!(out, "{:>6}: ", row * 20)?;
        for v in chunk {
            write!(out, " {v}")?;
        }
        writeln!(out)?;
    }
    match (r.period, r.preperiod) {
        (Some(p), Some(i)) => writeln!(out, "period {p}, preperiod {i} (proven: Guy-Smith)")?,
        _ => writeln!(out, "no period up to {}", r.upto)?,
    }
    writeln!(out, "largest value {} first at n = {}", r.largest, r.largest_at)?;
    match r.mask {
        Some(m) => writeln!(
            out,
            "sparse space: mask {m:#b}{}, {} rare heaps, {} common heaps, rare values {:?}",
            if r.mask_domain { " with heap parity" } else { "" },
            r.rare_heaps,
            r.common_heaps,
            r.rare_values
        )?,
        None => writeln!(out, "sparse space: none (every value is 0)")?,
    }
    Ok(())
}

/// Plots the values against n into `path`: PNG if it ends in `.png`, otherwise SVG.
pub fn plot(r: &GrundyReport, path: &Path) -> Result<()> {
    let png = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let result = if png {
        // Bitmap text needs a font library; the PNG plot carries no text.
        draw(BitMapBackend::new(path, (1200, 600)).into_drawing_area(), r, false)
    } else {
        draw(SVGBackend::new(path, (1200, 600)).into_drawing_area(), r, true)
    };
    result.with_context(|| format!("cannot write the plot to {}", path.display()))
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    r: &GrundyReport,
    text: bool,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("{e}");
    root.fill(&WHITE).map_err(err)?;
    let y_max = r.largest.max(1) + 1;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(20);
    if text {
        builder
            .caption(format!("nim-sequence of {}", r.game), ("sans-serif", 24))
            .x_label_area_size(40)
            .y_label_area_size(50);
    }
    let mut chart = builder.build_cartesian_2d(0..r.upto + 1, 0..y_max).map_err(err)?;
    if text {
        chart.configure_mesh().x_desc("n (heap size)").y_desc("G(n)").draw().map_err(err)?;
    }
    // One dot per heap; long sequences are thinned to at most 200,000 dots, keeping each
    // stretch's largest value (the shape people look at).
    let step = r.values.len().div_ceil(200_000).max(1);
    let dots = r.values.chunks(step).enumerate().map(|(i, c)| {
        let (j, &v) = c.iter().enumerate().max_by_key(|&(_, &v)| v).unwrap_or((0, &0));
        (i * step + j, v)
    });
    chart.draw_series(dots.map(|(n, v)| Pixel::new((n, v), BLUE))).map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

/// Runs `xo grundy`: computes, prints text or JSON to standard output, and plots if asked.
pub fn run(args: &GrundyArgs) -> Result<()> {
    let r = report(&args.game, args.upto, Duration::from_secs(args.max_seconds))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json {
        serde_json::to_writer(&mut out, &r).context("cannot write JSON")?;
        writeln!(out)?;
    } else {
        write_text(&r, &mut out)?;
    }
    out.flush()?;
    if let Some(path) = &args.plot {
        plot(&r, path)?;
    }
    Ok(())
}
