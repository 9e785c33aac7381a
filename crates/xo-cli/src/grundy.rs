//! `xo grundy GAME --upto N`: the nim-sequence of an octal game with its proven period, summary
//! figures, JSON output and a plot, the way combinatorial-game theorists look at these sequences.
//!
//! The plot (plotters, image) is behind the cargo feature `plot` (on by default); without it
//! `--plot` still parses and is refused, naming the feature, before any work is done.

use crate::budget::{BudgetArgs, OverBudget};
use crate::game::request_game;
use anyhow::{Context, Result};
#[cfg(feature = "plot")]
use plotters::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use xo_core::query::{answer, Answer, SequenceReport, UnknownSequence};
use xo_core::request::{Ask, Request};

/// Arguments of `xo grundy`.
#[derive(Debug, Clone, clap::Args)]
pub struct GrundyArgs {
    /// The game: an octal or hexadecimal code (`octal:0.77`, `0.07`, `.137`, `4.07`, `0.F`), a
    /// name (`kayles`, `dawson-kayles`), or `treblecross` (played as .007).
    pub game: String,
    /// The largest heap (values are computed for heaps 0..=N).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub upto: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write a plot of the values against n (SVG, or PNG if FILE ends in .png; needs the `plot`
    /// feature, on by default).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Write the values to FILE as a stored nim-sequence (atomically), the format xo ships .007
    /// in for Treblecross (`xo_store::sequence`).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// The budget of the computation.
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// The nim-sequence `args` ask for, within their budget.
pub fn report(args: &GrundyArgs) -> Result<SequenceReport> {
    compute(args)?.map_err(|unknown| OverBudget::from(unknown.stopped).into())
}

/// The request `args` make, answered through the core's one entry point: the sequence, or its
/// shape with every figure unknown when the budget ran out.
fn compute(args: &GrundyArgs) -> Result<Result<SequenceReport, UnknownSequence>> {
    let mut request =
        Request { question: Ask::Grundy, upto: Some(args.upto as u64), ..Default::default() };
    request_game(&args.game, &mut request)?;
    let query = request.prepare(&[], xo_core::threads::Runner::Alone)?;
    let (meter, bar) = args.budget.meter();
    let result = answer(&query, &meter);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match result.unwrap_or_else(|stopped| query.unanswered(&stopped)) {
        Answer::Sequence(r) => Ok(Ok(r)),
        Answer::UnknownSequence(unknown) => Ok(Err(unknown)),
        other => anyhow::bail!("a grundy request was answered as {}", kind(&other)),
    }
}

/// An answer's kind, for the message of one the command does not expect.
fn kind(answer: &Answer) -> String {
    serde_json::to_string(answer).unwrap_or_default().chars().take(80).collect()
}

/// Writes the report as text: the values twenty to a line, then the period and summary figures.
///
/// ```
/// use xo_cli::grundy::write_text;
/// use xo_core::query::{answer, Answer, Question};
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// let q = Request::new("0.007").asking(Question::Grundy { upto: 15 });
/// let q = q.prepare(&[], Runner::Pool).unwrap();
/// let Answer::Sequence(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
/// let mut out = Vec::new();
/// write_text(&r, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("     0:  0 0 0 1 1 1 2 2 0 3 3 1 1 1 0 4\n"));
/// assert!(text.contains("no period up to 15"));
/// ```
pub fn write_text(r: &SequenceReport, out: &mut impl Write) -> std::io::Result<()> {
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

/// Plots the values against n into `path`: PNG if it ends in `.png`, otherwise SVG. The image is
/// drawn in memory and written through the store's atomic writer, like every output of xo: only
/// a regular file (or none) is replaced, never through a symbolic link, a FIFO or a device.
#[cfg(feature = "plot")]
pub fn plot(r: &SequenceReport, path: &Path) -> Result<()> {
    let context = || format!("cannot write the plot to {}", path.display());
    let png = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let bytes = if png { png_plot(r) } else { svg_plot(r) }.with_context(context)?;
    let mut file = xo_store::file::AtomicFile::create(path).with_context(context)?;
    file.write_all(&bytes).with_context(context)?;
    file.commit().with_context(context)
}

/// Refuses the plot: this `xo` was built without plotters and image.
#[cfg(not(feature = "plot"))]
pub fn plot(_r: &SequenceReport, _path: &Path) -> Result<()> {
    Err(crate::built_without("plot"))
}

/// The plot's size in pixels.
#[cfg(feature = "plot")]
const PLOT_SIZE: (u32, u32) = (1200, 600);

#[cfg(feature = "plot")]
fn svg_plot(r: &SequenceReport) -> Result<Vec<u8>> {
    let mut svg = String::new();
    draw(SVGBackend::with_string(&mut svg, PLOT_SIZE).into_drawing_area(), r, true)?;
    Ok(svg.into_bytes())
}

#[cfg(feature = "plot")]
fn png_plot(r: &SequenceReport) -> Result<Vec<u8>> {
    let (w, h) = PLOT_SIZE;
    let mut rgb = vec![0u8; 3 * w as usize * h as usize];
    // Bitmap text needs a font library; the PNG plot carries no text.
    draw(BitMapBackend::with_buffer(&mut rgb, PLOT_SIZE).into_drawing_area(), r, false)?;
    let image = image::RgbImage::from_raw(w, h, rgb).context("the plot's pixels")?;
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageOutputFormat::Png).context("encoding the PNG")?;
    Ok(png.into_inner())
}

#[cfg(feature = "plot")]
fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    r: &SequenceReport,
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

/// Runs `xo grundy`: computes, prints text or JSON to `out`, and plots if asked.
pub fn run(args: &GrundyArgs, out: &mut impl Write) -> Result<()> {
    check_plot(args)?;
    let r = match compute(args)? {
        Ok(r) => r,
        Err(unknown) => {
            // Over budget: the answer's shape with every figure unknown (exit 3 follows).
            if args.json {
                let json = serde_json::to_string(&unknown).context("cannot write JSON")?;
                writeln!(out, "{json}").context("cannot write the answer")?;
            } else {
                writeln!(
                    out,
                    "nim-sequence of {} for heaps 0..={}: unknown\nnote: {}",
                    unknown.game, unknown.upto, unknown.stopped
                )
                .context("cannot write the answer")?;
            }
            out.flush().context("cannot write the answer")?;
            return Err(OverBudget::from(unknown.stopped).into());
        }
    };
    // The plot first: a reader that closes the pipe early (`| head -1`) ends the printing, not
    // the plot asked for.
    if let Some(path) = &args.plot {
        plot(&r, path)?;
    }
    if let Some(path) = &args.save {
        save(&r, path)?;
    }
    if args.json {
        let json = serde_json::to_string(&r).context("cannot write JSON")?;
        writeln!(out, "{json}").context("cannot write the answer")?;
    } else {
        write_text(&r, out).context("cannot write the answer")?;
    }
    out.flush().context("cannot write the answer")?;
    Ok(())
}

/// Writes the values of `r` to `path` as a stored nim-sequence.
fn save(r: &SequenceReport, path: &Path) -> Result<()> {
    let game = xo_core::query::Game::parse(&r.game)?
        .octal()
        .with_context(|| format!("{} is not an octal game", r.game))?;
    let stored = xo_core::solve::grundy::StoredSequence::new(game, r.values.clone());
    xo_store::sequence::write(path, &stored)
        .with_context(|| format!("cannot save the values to {}", path.display()))?;
    Ok(())
}

/// Refuses a plot or saved file that could not be written (a link, a FIFO, a device, a missing
/// folder), or any plot when this `xo` was built without the `plot` feature, before any work is done.
pub fn check_plot(args: &GrundyArgs) -> Result<()> {
    if let Some(path) = &args.plot {
        if cfg!(not(feature = "plot")) {
            return Err(crate::built_without("plot"));
        }
        xo_store::file::check_output(path)
            .with_context(|| format!("cannot write the plot to {}", path.display()))?;
    }
    if let Some(path) = &args.save {
        xo_store::file::check_output(path)
            .with_context(|| format!("cannot save the values to {}", path.display()))?;
    }
    Ok(())
}
