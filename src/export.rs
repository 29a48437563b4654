//! Export: the pure parts of taking a page's run elsewhere (slides, handouts, papers).
//!
//! File names, the provenance every exported file carries (version, page, preset, seed
//! and the link that reproduces it), the report as JSON and the time series as CSV (the
//! same functions `lab run --format json|csv` prints with, so the page and the CLI cannot
//! drift apart), the labs' step tables as CSV, a PNG `tEXt` chunk and the embed snippet.
//! The browser glue (Blob downloads, SVG cloning, canvas) is `ui/export.rs`; everything
//! here is tested natively.

use crate::model::amplification::CalcOutput;
use crate::model::slo::Slo;
/// Export escapes text with the figures' one function.
pub use crate::plot::esc as xml_escape;
use crate::query::Query;
use crate::report::Report;
use std::fmt::Write as _;

pub use labs::{admission_csv, admission_json, breaker_csv, breaker_json};

/// The version exported files name (the crate's).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where an exported file came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The page's `page=` value (`storm`, `calculator`, …).
    pub page: String,
    /// The preset the page started from (empty for the calculator, which has none).
    pub preset: String,
    /// The run's seed, where the page has one.
    pub seed: Option<u64>,
    /// The link that reproduces the page's state (every edited knob is in it).
    pub link: String,
    /// Compare mode's side (`A` or `B`) the file is of; none outside compare mode.
    pub side: Option<&'static str>,
}

impl Provenance {
    /// The file name without extension: `resilience-lab-<version>-<preset>-seed<N>` for
    /// the storm page, with the page's name before the preset for the other pages (their
    /// presets share names such as `source-002`).
    pub fn stem(&self) -> String {
        let mut out = format!("resilience-lab-{VERSION}");
        if self.page != "storm" {
            out.push('-');
            out.push_str(&safe_name(&self.page));
        }
        if !self.preset.is_empty() {
            out.push('-');
            out.push_str(&safe_name(&self.preset));
        }
        if let Some(seed) = self.seed {
            let _ = write!(out, "-seed{seed}");
        }
        out
    }

    /// A file name: the stem, an optional figure name, then `suffix` (such as `.json` or
    /// `@2x.png`).
    pub fn file_name(&self, figure: Option<&str>, suffix: &str) -> String {
        match figure {
            Some(f) if !f.is_empty() => format!("{}-{}{suffix}", self.stem(), safe_name(f)),
            _ => format!("{}{suffix}", self.stem()),
        }
    }

    /// The provenance as `key: value` lines, for CSV comments, SVG `<desc>` and PNG text.
    pub fn lines(&self) -> Vec<String> {
        let mut out =
            vec![format!("generator: {}", crate::report::generator()), format!("page: {}", self.page)];
        if !self.preset.is_empty() {
            out.push(format!("preset: {}", self.preset));
        }
        if let Some(seed) = self.seed {
            out.push(format!("seed: {seed}"));
        }
        if let Some(side) = self.side {
            out.push(format!("side: {side} of compare mode"));
        }
        out.push(format!("link: {}", self.link));
        out.push("figures come from a virtual-time model, not measurements of real systems".into());
        out
    }

    /// CSV comment lines (`# key: value`), one a line, to put before the header row.
    pub fn csv_comments(&self) -> String {
        self.lines().iter().map(|l| format!("# {}\n", one_line(l))).collect()
    }

    /// The lines as one ASCII text (PNG `tEXt` is Latin-1: anything else becomes `?`;
    /// links are percent-encoded, so they survive whole).
    pub fn ascii_text(&self) -> String {
        self.lines().join("\n").chars().map(|c| if c.is_ascii() { c } else { '?' }).collect()
    }
}

/// Whether a computed CSS colour (as `getComputedStyle` writes it: `rgb(r, g, b)` or
/// `rgba(r, g, b, a)`) shows nothing: empty, `transparent`, or an alpha of 0. Only the
/// alpha counts: `rgb(194, 136, 0)`, a gold with no blue, is a colour.
pub fn is_clear_colour(css: &str) -> bool {
    let css = css.trim();
    if css.is_empty() || css == "transparent" {
        return true;
    }
    css.strip_prefix("rgba(")
        .and_then(|rest| rest.strip_suffix(')'))
        .and_then(|inner| inner.rsplit(',').next())
        .is_some_and(|alpha| alpha.trim().parse::<u8>().is_ok_and(|a| a == 0))
}

/// Keeps a name safe in a file name on every system: ASCII letters, digits, `-`, `_`
/// and `.`; anything else becomes `-`, and the name is at most 60 characters.
pub fn safe_name(s: &str) -> String {
    s.chars()
        .take(60)
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '-' })
        .collect()
}

/// Line breaks flattened, so a value cannot end a CSV comment early.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// The whole report as `lab run --format json` prints it, newline included.
///
/// `link`: how to run an edited run again (see [`crate::state::runs::report_link`]),
/// written after `seed`: `link`, the storm page's query, and for compare mode's side B
/// `versus: true` (what `lab run --link … --versus` prints); `None` for a preset as
/// shipped, which `--preset P --seed S` reproduces. Then `slo`: the run's error budget
/// against the scenario's objective (`model::slo::ErrorBudget`).
pub fn report_json(r: &Report, link: Option<&ReportLink>, slo: Slo) -> String {
    let mut out = r.to_json_pretty();
    // After the seed's line: `Report`'s fields are written in their declared order.
    let at = out.find("\n  \"summary\":").unwrap_or(out.len());
    let mut lines = String::new();
    if let Some(link) = link {
        lines.push_str(&format!("\n  \"link\": {},", serde_json::to_string(&link.query).unwrap_or_default()));
        if link.versus {
            lines.push_str("\n  \"versus\": true,");
        }
    }
    // The verdict the page's SLO line and the table's `slo` row give, so that a script
    // reading the JSON need not count it again (a budget spent with none allowed: null).
    let budget = serde_json::to_string(&slo.budget(&r.summary)).unwrap_or_default();
    lines.push_str(&format!("\n  \"slo\": {budget},"));
    out.insert_str(at, &lines);
    out.push('\n');
    out
}

/// How to run a report again: the storm page's query (what `lab run --link` takes) and
/// whether it is compare mode's side B (`--versus`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportLink {
    pub query: String,
    pub versus: bool,
}

/// What [`lab_json`] writes: the provenance, then the result.
#[derive(serde::Serialize)]
struct LabExport<'a, R> {
    generator: String,
    page: &'a str,
    preset: &'a str,
    seed: Option<u64>,
    link: &'a str,
    result: &'a R,
}

/// A lab's result as JSON: the provenance, then what its model produced. Serialized
/// straight to text (not through `serde_json::Value`), so each type's serializer is
/// compiled once, shared with [`report_json`]: the bundle is over its budget.
pub fn lab_json<R: serde::Serialize>(p: &Provenance, result: &R) -> String {
    let v = LabExport {
        generator: crate::report::generator(),
        page: &p.page,
        preset: &p.preset,
        seed: p.seed,
        link: &p.link,
        result,
    };
    let mut out = serde_json::to_string_pretty(&v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    out.push('\n');
    out
}

/// The report's time series, a row per bucket, as `lab run --format csv` prints them.
pub fn series_csv(r: &Report) -> String {
    let s = &r.series;
    // What the columns count, and over what: a bucket's width differs from run to run.
    let mut out = format!(
        "# bucket_ms={}: offered, attempts_*, succeeded, degraded, failed and rejected count per bucket; \
         in_flight_*, queue_* and requests_in_flight are the most at once within the bucket\nt_ms,offered",
        s.bucket_ms
    );
    for h in &r.hops {
        for what in ["attempts", "in_flight", "queue"] {
            let _ = write!(out, ",{}", csv_field(&format!("{what}_{}", h.name)));
        }
    }
    out.push_str(",succeeded,degraded,failed,rejected,requests_in_flight\n");
    // Guarded reads: a report is data, and a short series must not panic the page.
    for i in 0..s.buckets {
        let _ = write!(out, "{},{}", i as f64 * s.bucket_ms, at(&s.offered, i));
        for h in 0..r.hops.len() {
            let _ = write!(
                out,
                ",{},{},{}",
                col(&s.attempts, h, i),
                col(&s.in_flight, h, i),
                col(&s.queue, h, i)
            );
        }
        let _ = writeln!(
            out,
            ",{},{},{},{},{}",
            at(&s.succeeded, i),
            at(&s.degraded, i),
            at(&s.failed, i),
            at(&s.rejected, i),
            at(&s.requests_in_flight, i)
        );
    }
    out
}

/// `v[i]`, or 0 past its end.
fn at<T: Copy + Default>(v: &[T], i: usize) -> T {
    v.get(i).copied().unwrap_or_default()
}

/// `v[h][i]`, or 0 past either end.
fn col<T: Copy + Default>(v: &[Vec<T>], h: usize, i: usize) -> T {
    v.get(h).map_or_else(T::default, |c| at(c, i))
}

/// A CSV field per RFC 4180: quoted when it holds a comma, a quote or a line break, with
/// quotes doubled.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// Every figure of the calculator, a row each with its unit: the rates, the rate at each
/// level of the chain (entry first), the four in-flight rows against the pool, the payload.
pub fn calculator_csv(out: &CalcOutput) -> String {
    let mut csv = String::from("figure,value,unit\n");
    let mut row = |figure: &str, value: f64, unit: &str| {
        let _ = writeln!(csv, "{figure},{value},{unit}");
    };
    row("average_rate", out.avg_rps, "req/s");
    row("peak_rate", out.peak_rps, "req/s");
    row("amplification", out.amplification, "x");
    row("worst_case_downstream_attempts", out.worst_attempts_per_s, "attempts/s");
    for (i, r) in out.rate_per_level.iter().enumerate() {
        row(&format!("level_{i}_rate"), *r, if i == 0 { "req/s" } else { "attempts/s" });
    }
    for (name, f) in [
        ("healthy_no_amplification", &out.normal_before),
        ("healthy_amplified", &out.normal_after),
        ("slow_downstream_no_amplification", &out.degraded_before),
        ("slow_downstream_amplified", &out.degraded_after),
    ] {
        row(&format!("in_flight_{name}"), f.in_flight, "connections");
        row(&format!("pool_share_{name}"), f.pool_share, "fraction of the pool");
        row(&format!("saturated_{name}"), if f.saturated { 1.0 } else { 0.0 }, "1 = reaches the pool");
    }
    row("payload_at_peak", out.payload_mb_per_s, "MB/s");
    csv
}

/// `href` with `embed=1` set in its query (the compact mode without the control panel),
/// the fragment dropped.
pub fn embed_url(href: &str) -> String {
    with_query(href, |q| q.set("embed", "1"))
}

/// `href` without `embed`: the full page a compact view links to.
pub fn full_page_url(href: &str) -> String {
    with_query(href, |q| q.remove("embed"))
}

fn with_query(href: &str, edit: impl FnOnce(&mut Query)) -> String {
    let no_hash = href.split('#').next().unwrap_or("");
    let (base, query) = no_hash.split_once('?').unwrap_or((no_hash, ""));
    let mut q = Query::parse(query);
    edit(&mut q);
    format!("{base}{}", q.to_query_string())
}

/// The `<iframe>` that embeds `href` in compact mode, titled `title`.
pub fn embed_snippet(href: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"820\" style=\"border:0\" loading=\"lazy\"></iframe>",
        xml_escape(&embed_url(href)),
        xml_escape(title)
    )
}

/// CRC-32 (ISO-HDLC, the PNG and zlib one), bit by bit: a PNG gets one chunk, so a table
/// would only add bytes to the bundle.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// `png` with a `tEXt` chunk (`keyword`, `text`) right after its header chunk, or `None`
/// if `png` is not a PNG whose first chunk is a whole IHDR. A keyword is 1–79 Latin-1
/// characters; the text is Latin-1 too: anything else becomes `?`.
pub fn png_with_text(png: &[u8], keyword: &str, text: &str) -> Option<Vec<u8>> {
    // Signature (8), then IHDR: length (4) = 13, type (4), data (13), CRC (4).
    const IHDR_END: usize = 8 + 4 + 4 + 13 + 4;
    if png.len() < IHDR_END
        || png[..8] != PNG_SIGNATURE
        || &png[12..16] != b"IHDR"
        || png[8..12] != [0, 0, 0, 13]
    {
        return None;
    }
    let latin1 = |s: &str| -> Vec<u8> {
        s.chars().map(|c| if (c as u32) < 256 && c != '\0' { c as u8 } else { b'?' }).collect()
    };
    let key = latin1(keyword);
    if key.is_empty() || key.len() > 79 {
        return None;
    }
    let mut body = b"tEXt".to_vec();
    body.extend(key);
    body.push(0);
    body.extend(latin1(text));
    let len = u32::try_from(body.len() - 4).ok()?;
    let mut out = Vec::with_capacity(png.len() + body.len() + 8);
    out.extend_from_slice(&png[..IHDR_END]);
    out.extend(len.to_be_bytes());
    out.extend_from_slice(&body);
    out.extend(crc32(&body).to_be_bytes());
    out.extend_from_slice(&png[IHDR_END..]);
    Some(out)
}

/// Every `tEXt` chunk of a PNG as (keyword, text), checked against its CRC (a chunk
/// whose CRC does not match is left out). Reads what [`png_with_text`] writes.
pub fn png_texts(png: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if png.len() < 8 || png[..8] != PNG_SIGNATURE {
        return out;
    }
    let mut i = 8;
    while i + 12 <= png.len() {
        let len = u32::from_be_bytes([png[i], png[i + 1], png[i + 2], png[i + 3]]) as usize;
        let Some(end) = (i + 8).checked_add(len).filter(|e| e + 4 <= png.len()) else { break };
        let kind = &png[i + 4..i + 8];
        let crc = u32::from_be_bytes([png[end], png[end + 1], png[end + 2], png[end + 3]]);
        if kind == b"tEXt" && crc32(&png[i + 4..end]) == crc {
            let data = &png[i + 8..end];
            let nul = data.iter().position(|&b| b == 0).unwrap_or(data.len());
            let s = |b: &[u8]| b.iter().map(|&c| c as char).collect::<String>();
            out.push((s(&data[..nul]), s(data.get(nul + 1..).unwrap_or(&[]))));
        }
        i = end + 4;
    }
    out
}

mod labs;
#[cfg(test)]
mod tests;
