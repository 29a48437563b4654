//! A time chart's numbers as a table a screen reader can walk (the chart itself is one
//! image to it): each series' highest bucket in each of 20 spans of the run (whole
//! buckets, equal to within one), then its peak and when it came. Markup as text, as the
//! breakdown's, and built only when its disclosure is opened.

use super::esc;
use crate::i18n::{Lang, T, format_number};
use std::fmt::Write as _;

/// Rows of a chart's table before its peak row: enough to show a run's shape, few enough
/// to read through.
pub const ROWS: usize = 20;

/// The spans of buckets the table's rows cover for a run of `n` buckets: `rows` equal
/// spans (one bucket each when there are no more than `rows`), together every bucket, so
/// that a spike between two sampled times is not lost.
pub fn row_spans(n: usize, rows: usize) -> Vec<std::ops::Range<usize>> {
    let k = n.min(rows);
    (0..k).map(|j| j * n / k..(j + 1) * n / k).collect()
}

/// A value as the table writes it: whole numbers whole, others with the digits a chart's
/// reader needs (up to two decimals under 10, one above).
fn value(v: f64) -> String {
    if v.fract() == 0.0 { format_number(v, 0) } else { format_number(v, if v.abs() < 10.0 { 2 } else { 1 }) }
}

/// The table of `series` (name, one value per bucket of `bucket_ms`), with `id` for its
/// element. Empty series give an empty table body.
pub fn markup(lang: Lang, id: &str, series: &[(&str, &[f64])], bucket_ms: f64) -> String {
    let n = series.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    let rows = row_spans(n, ROWS);
    let secs = |b: usize| format_number(b as f64 * bucket_ms / 1000.0, 2);
    let mut o = String::with_capacity(256 + rows.len() * series.len() * 16);
    let _ = write!(
        o,
        r#"<p class="note">{}</p><div class="table-scroll"><table class="inflight chart-table" id="{id}"><thead><tr><th scope="col">{}</th>"#,
        esc(&lang.f(T::DataTableNote, &[("k", &rows.len().to_string()), ("b", &format_number(bucket_ms, 0))])),
        esc(lang.t(T::DataTableTime))
    );
    for (name, _) in series {
        let _ = write!(o, r#"<th scope="col">{}</th>"#, esc(name));
    }
    o.push_str("</tr></thead><tbody>");
    for span in &rows {
        let _ = write!(o, r#"<tr><th scope="row">{}</th>"#, secs(span.start));
        for (_, v) in series {
            let top = v.get(span.clone()).and_then(|s| s.iter().copied().reduce(f64::max));
            let _ = write!(o, "<td>{}</td>", top.map_or_else(|| "—".to_string(), value));
        }
        o.push_str("</tr>");
    }
    let _ = write!(o, r#"<tr class="peak"><th scope="row">{}</th>"#, esc(lang.t(T::DataTablePeak)));
    for (_, v) in series {
        // The first bucket at the highest value.
        let peak = v.iter().enumerate().fold(None::<(usize, f64)>, |m, (i, &x)| match m {
            Some((_, best)) if best >= x => m,
            _ => Some((i, x)),
        });
        let cell = peak.map_or_else(
            || "—".to_string(),
            |(i, x)| lang.f(T::DataTablePeakAt, &[("v", &value(x)), ("t", &secs(i))]),
        );
        let _ = write!(o, "<td>{}</td>", esc(&cell));
    }
    o.push_str("</tr></tbody></table></div>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_cover_every_bucket_in_equal_spans() {
        assert_eq!(row_spans(3, 20), vec![0..1, 1..2, 2..3]);
        assert!(row_spans(0, 20).is_empty());
        let r = row_spans(401, 20);
        assert_eq!(r.len(), 20);
        assert_eq!((r[0].start, r[19].end), (0, 401));
        assert!(r.windows(2).all(|w| w[0].end == w[1].start), "no gap, no overlap");
        assert!(r.iter().all(|s| (20..=21).contains(&s.len())), "{r:?}");
    }

    #[test]
    fn the_table_has_a_row_per_span_and_each_series_peak() {
        let calls: Vec<f64> = (0..100).map(|i| if i == 37 { 900.0 } else { 10.0 }).collect();
        let util: Vec<f64> = vec![0.5; 100];
        let m = markup(Lang::En, "t-calls", &[("calls/s", &calls), ("busy", &util)], 100.0);
        assert_eq!(m.matches("<tr>").count(), 1 + 20, "the head and 20 rows");
        assert!(m.contains(r#"<th scope="col">calls/s</th><th scope="col">busy</th>"#), "{m}");
        assert!(
            m.contains(r#"<tr><th scope="row">9.5</th><td>10</td><td>0.5</td></tr>"#),
            "the last span: {m}"
        );
        // The spike is in its span's row (3.5–4 s), and the peak row says when it came.
        assert!(m.contains(r#"<tr><th scope="row">3.5</th><td>900</td>"#), "{m}");
        assert!(m.contains("<td>900 at 3.7 s</td>"), "{m}");
        assert!(m.contains("20 spans of whole 100 ms buckets"), "{m}");
        let zh = markup(Lang::Zh, "t", &[("调用", &calls)], 100.0);
        assert!(zh.contains("900（3.7 s 时）"), "{zh}");
    }
}
