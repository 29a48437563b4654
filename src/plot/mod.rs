//! Chart arithmetic: scales, ticks and SVG path strings. Pure functions with native tests;
//! the SVG components in `ui/` only place what these return.

pub mod breakdown;
pub mod breaker;
pub mod data_table;
pub mod direct_labels;
pub mod palette;
pub mod retry_timing;
pub mod stability;
pub mod storm;

/// Text escaped for XML, HTML and SVG text and attribute values (the figures written as
/// markup, and export's files).
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Maps a data interval onto a pixel interval, linearly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Linear {
    /// Data interval.
    pub domain: (f64, f64),
    /// Pixel interval (may run backwards, as y does in SVG).
    pub range: (f64, f64),
}

impl Linear {
    pub fn new(domain: (f64, f64), range: (f64, f64)) -> Self {
        Linear { domain, range }
    }

    /// Pixel position of `x`; a degenerate domain maps everything to the range's start.
    pub fn map(&self, x: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if d1 == d0 || !x.is_finite() {
            return r0;
        }
        r0 + (x - d0) / (d1 - d0) * (r1 - r0)
    }

    /// Data value at pixel `px`.
    pub fn invert(&self, px: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if r1 == r0 {
            return d0;
        }
        d0 + (px - r0) / (r1 - r0) * (d1 - d0)
    }
}

/// Maps a positive data interval onto pixels logarithmically.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Log {
    /// Data interval; both ends > 0.
    pub domain: (f64, f64),
    /// Pixel interval.
    pub range: (f64, f64),
}

impl Log {
    pub fn new(domain: (f64, f64), range: (f64, f64)) -> Self {
        let lo = domain.0.max(f64::MIN_POSITIVE);
        Log { domain: (lo, domain.1.max(lo)), range }
    }

    /// Pixel position of `x`; values ≤ 0 map to the range's start.
    pub fn map(&self, x: f64) -> f64 {
        if x <= 0.0 || !x.is_finite() {
            return self.range.0;
        }
        Linear::new((self.domain.0.ln(), self.domain.1.ln()), self.range).map(x.ln())
    }
}

/// Round tick values covering `[lo, hi]`, about `count` of them (steps of 1, 2 or 5 × 10ⁿ).
pub fn nice_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || count == 0 {
        return Vec::new();
    }
    if hi <= lo {
        return vec![lo];
    }
    let step = nice_step((hi - lo) / count as f64);
    let first = (lo / step).ceil();
    // Decimals the step needs, to remove float noise such as 0.6000000000000001.
    let decimals = (-step.log10().floor()).max(0.0) as i32;
    let scale = 10f64.powi(decimals);
    let mut ticks = Vec::new();
    let mut k = first;
    // At most `count` × 3 ticks: a range a few floats wide (0.5..0.5000000000000001) has a
    // step so small that `k` passes 2⁵³, where `k + 1.0 == k`, and the loop would not end.
    while ticks.len() <= count * 3 {
        let t = ((k * step) * scale).round() / scale;
        if t > hi + step * 1e-9 {
            break;
        }
        ticks.push(t);
        k += 1.0;
    }
    ticks
}

/// An axis's tick labels as drawn: each centred under its tick, unless that runs past
/// `left` or `right` (the drawing's edge, or the other axis's labels), where it starts or
/// ends at its tick instead; then, so that no two meet, the last label is always kept and
/// each before it only where it clears the one kept before it and the last by `gap` units.
/// `em`: the labels' size in units. Returns (x, label, `text-anchor`).
pub fn tick_labels(
    ticks: Vec<(f64, String)>,
    em: f64,
    left: f64,
    right: f64,
    gap: f64,
) -> Vec<(f64, String, &'static str)> {
    let extent = |x: f64, text: &str| {
        let w = palette::glyphs_width(text, em);
        let anchor = if x - w / 2.0 < left {
            "start"
        } else if x + w / 2.0 > right {
            "end"
        } else {
            "middle"
        };
        let from = match anchor {
            "start" => x,
            "end" => x - w,
            _ => x - w / 2.0,
        };
        (anchor, from, from + w)
    };
    let placed: Vec<(f64, String, &'static str, f64, f64)> = ticks
        .into_iter()
        .map(|(x, text)| {
            let (anchor, a, b) = extent(x, &text);
            (x, text, anchor, a, b)
        })
        .collect();
    let Some(last_from) = placed.last().map(|p| p.3) else { return Vec::new() };
    let n = placed.len();
    let mut kept: Vec<(f64, String, &'static str)> = Vec::with_capacity(n);
    let mut kept_to = f64::NEG_INFINITY;
    for (i, (x, text, anchor, a, b)) in placed.into_iter().enumerate() {
        let last = i + 1 == n;
        if last || (a >= kept_to + gap && b + gap <= last_from) {
            kept_to = b;
            kept.push((x, text, anchor));
        }
    }
    kept
}

/// The nearest 1, 2 or 5 × 10ⁿ at or above `raw`.
pub fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// The labelled values of a y axis from 0 to `max` (a [`nice_max`]), about four intervals.
/// They end at the top where a step of 1, 2 or 5 × 10ⁿ can reach it: four intervals of
/// 2,000 had stopped at 4,000 under a top of 5,000, which read as uneven, so five of 1,000
/// are taken instead. Where no step reaches it, the top is labelled too (a line along a top
/// of 5 over ticks 0, 2, 4 read as unscaled), unless it would crowd the last tick. `whole`:
/// only whole numbers (0.5 of a breaker means nothing).
pub fn axis_ticks(max: f64, whole: bool) -> Vec<f64> {
    let mut ticks = nice_ticks(0.0, max, 4);
    if ticks.last().is_some_and(|&last| last < max) {
        let five = nice_ticks(0.0, max, 5);
        if five.last().is_some_and(|&l| (l - max).abs() <= 1e-9 * max) {
            ticks = five;
        }
    }
    if whole {
        ticks.retain(|t| t.fract() == 0.0);
    }
    if let (Some(&last), [a, b, ..]) = (ticks.last(), ticks.as_slice())
        && max - last >= 0.4 * (b - a)
        && (!whole || max.fract() == 0.0)
    {
        ticks.push(max);
    }
    ticks
}

/// A round upper bound for an axis that must show `max` (at least 1).
pub fn nice_max(max: f64) -> f64 {
    if !(max.is_finite()) || max <= 0.0 {
        return 1.0;
    }
    let step = nice_step(max / 5.0);
    (max / step).ceil() * step
}

/// Appends a coordinate with at most one decimal, which is plenty for screen pixels and
/// keeps paths short. Written digit by digit: float formatting dominated the cost of a
/// redraw in wasm.
fn push_xy(out: &mut String, cmd: char, x: f64, y: f64) {
    out.push(cmd);
    push_tenths(out, x);
    out.push(',');
    push_tenths(out, y);
}

/// Writes `x` rounded to one decimal, without a trailing `.0`.
pub(crate) fn push_tenths(out: &mut String, x: f64) {
    let t = if x.is_finite() { (x * 10.0).round() as i64 } else { 0 };
    if t < 0 {
        out.push('-');
    }
    let t = t.unsigned_abs();
    let (int, frac) = (t / 10, t % 10);
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = int;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(b as char);
    }
    if frac != 0 {
        out.push('.');
        out.push((b'0' + frac as u8) as char);
    }
}

/// A number written as [`push_tenths`] does, for `format!`: markup built as text uses it
/// instead of `{:.1}`, whose exact float formatting would add its own code to the bundle.
pub struct Tenths(pub f64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::with_capacity(12);
        push_tenths(&mut s, self.0);
        f.write_str(&s)
    }
}

/// A line cut at a chart's top: see [`clip_at_top`].
#[derive(Clone, Debug, PartialEq)]
pub struct Clipped {
    /// The points drawn, the last on the top edge if the line crossed it.
    pub shown: Vec<(f64, f64)>,
    /// The line's last point on the axis, when it is above the top there (for a label).
    pub beyond: Option<(f64, f64)>,
}

/// The part of `line` (ascending x) the chart shows: up to `x_end`, ending where it first
/// crosses `ymax` (at the crossing, not at the last point below it); and, when the line is
/// above the top at the axis' end, that last point, for a label.
pub fn clip_at_top(line: &[(f64, f64)], x_end: f64, ymax: f64) -> Clipped {
    let mut shown = Vec::new();
    for (i, &p) in line.iter().enumerate() {
        if p.0 > x_end + 1e-9 {
            break;
        }
        if p.1 > ymax {
            if let Some(&q) = i.checked_sub(1).and_then(|j| line.get(j)) {
                let f = (ymax - q.1) / (p.1 - q.1);
                shown.push((q.0 + f * (p.0 - q.0), ymax));
            }
            break;
        }
        shown.push(p);
    }
    let last = line.iter().take_while(|p| p.0 <= x_end + 1e-9).last().copied();
    Clipped { shown, beyond: last.filter(|p| p.1 > ymax) }
}

/// A polyline through `points` (already in pixels): `M x,y L x,y …`.
pub fn line_path(points: &[(f64, f64)]) -> String {
    let mut out = String::with_capacity(points.len() * 12);
    for (i, &(x, y)) in points.iter().enumerate() {
        push_xy(&mut out, if i == 0 { 'M' } else { 'L' }, x, y);
    }
    out
}

/// A step line for bucketed series: value `ys[i]` holds from `xs[i]` to `xs[i + 1]`
/// (`xs` has one more element than `ys`).
pub fn step_path(xs: &[f64], ys: &[f64]) -> String {
    let mut out = String::with_capacity(ys.len() * 24);
    for (i, &y) in ys.iter().enumerate() {
        let (Some(&x0), Some(&x1)) = (xs.get(i), xs.get(i + 1)) else { break };
        push_xy(&mut out, if i == 0 { 'M' } else { 'L' }, x0, y);
        push_xy(&mut out, 'L', x1, y);
    }
    out
}

/// A closed area between a step line `top` and a step line `bottom` (both bucketed as in
/// [`step_path`]), for stacked charts.
pub fn step_band(xs: &[f64], top: &[f64], bottom: &[f64]) -> String {
    let n = top.len().min(bottom.len()).min(xs.len().saturating_sub(1));
    if n == 0 {
        return String::new();
    }
    let mut out = String::with_capacity(n * 48);
    for i in 0..n {
        push_xy(&mut out, if i == 0 { 'M' } else { 'L' }, xs[i], top[i]);
        push_xy(&mut out, 'L', xs[i + 1], top[i]);
    }
    for i in (0..n).rev() {
        push_xy(&mut out, 'L', xs[i + 1], bottom[i]);
        push_xy(&mut out, 'L', xs[i], bottom[i]);
    }
    out.push('Z');
    out
}

/// One bar of the chain picture.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainBar {
    /// Left edge (px).
    pub x: f64,
    /// Top edge (px).
    pub y: f64,
    /// Width (px).
    pub width: f64,
    /// Height (px).
    pub height: f64,
    /// The rate it stands for.
    pub value: f64,
}

/// Lays out one bar per level of a call chain, heights on a log scale so that ×3 looks the
/// same at every level, inside a `width` × `height` box with `pad` pixels around.
pub fn chain_bars(rates: &[f64], width: f64, height: f64, pad: f64) -> Vec<ChainBar> {
    let n = rates.len();
    if n == 0 {
        return Vec::new();
    }
    let max = rates.iter().copied().fold(0.0_f64, f64::max);
    let min = rates.iter().copied().filter(|r| *r > 0.0).fold(f64::INFINITY, f64::min);
    let slot = (width - 2.0 * pad) / n as f64;
    let bar_w = (slot * 0.55).max(2.0);
    let base = height - pad;
    let min_h = 20.0;
    let usable = (height - 2.0 * pad - min_h).max(1.0);
    // The smallest bar gets min_h; each decade above adds proportionally.
    let scale = if max > min && min.is_finite() { Some(Log::new((min, max), (0.0, usable))) } else { None };
    rates
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let extra = match scale {
                Some(s) => s.map(v),
                None => usable,
            };
            let h = if v > 0.0 { min_h + extra } else { 0.0 };
            ChainBar {
                x: pad + slot * i as f64 + (slot - bar_w) / 2.0,
                y: base - h,
                width: bar_w,
                height: h,
                value: v,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_stay_inside_and_apart() {
        let t = |v: &[(f64, &str)]| v.iter().map(|&(x, s)| (x, s.to_string())).collect::<Vec<_>>();
        // Centred where there is room; the first starts at its tick past the left edge, the
        // last ends at its tick past the right.
        let got = tick_labels(t(&[(2.0, "0"), (100.0, "500"), (198.0, "1,000 ms")]), 10.0, 0.0, 200.0, 4.0);
        let anchors: Vec<&str> = got.iter().map(|g| g.2).collect();
        assert_eq!(anchors, ["start", "middle", "end"], "{got:?}");
        // Too close: the middle label, which would meet the last, is dropped; the last kept.
        let got = tick_labels(t(&[(110.0, "0"), (185.0, "500"), (244.0, "1,000 ms")]), 10.5, 0.0, 256.0, 4.0);
        let texts: Vec<&str> = got.iter().map(|g| g.1.as_str()).collect();
        assert_eq!(texts, ["0", "1,000 ms"], "{got:?}");
        assert!(tick_labels(Vec::new(), 10.0, 0.0, 100.0, 4.0).is_empty());
    }

    #[test]
    fn axis_ticks_end_at_the_top_where_a_nice_step_can() {
        assert_eq!(axis_ticks(5000.0, true), vec![0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0]);
        assert_eq!(axis_ticks(8.0, true), vec![0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(axis_ticks(1.0, false), vec![0.0, 0.5, 1.0]);
        // Every nice top's ticks are evenly spaced and end at it.
        for k in -2..6 {
            for m in [1.0, 1.2, 1.4, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0] {
                let max = nice_max(m * 10f64.powi(k));
                let t = axis_ticks(max, false);
                let step = t[1] - t[0];
                assert!(t.windows(2).all(|w| ((w[1] - w[0]) - step).abs() <= 1e-9 * max), "{max}: {t:?}");
                assert!((t[t.len() - 1] - max).abs() <= 1e-9 * max, "{max}: {t:?}");
                assert!((3..=7).contains(&t.len()), "{max}: {t:?}");
            }
        }
    }

    #[test]
    fn linear_maps_and_inverts() {
        let s = Linear::new((0.0, 100.0), (200.0, 0.0));
        assert_eq!(s.map(0.0), 200.0);
        assert_eq!(s.map(25.0), 150.0);
        assert_eq!(s.invert(150.0), 25.0);
        assert_eq!(Linear::new((5.0, 5.0), (0.0, 10.0)).map(7.0), 0.0);
    }

    #[test]
    fn log_scale_spaces_decades_evenly() {
        let s = Log::new((1.0, 1000.0), (0.0, 300.0));
        assert!((s.map(10.0) - 100.0).abs() < 1e-9);
        assert!((s.map(100.0) - 200.0).abs() < 1e-9);
        assert_eq!(s.map(0.0), 0.0);
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(nice_ticks(0.0, 4500.0, 4), vec![0.0, 2000.0, 4000.0]);
        assert_eq!(nice_ticks(0.0, 1.0, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(nice_ticks(3.0, 3.0, 5), vec![3.0]);
        assert_eq!(nice_max(4500.0), 5000.0);
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(230.0), 250.0);
    }

    #[test]
    fn coordinates_are_written_to_a_tenth() {
        let mut s = String::new();
        push_xy(&mut s, 'M', -0.04, 1234.56);
        push_xy(&mut s, 'L', -2.35, 0.0);
        assert_eq!(s, "M0,1234.6L-2.4,0");
    }

    #[test]
    fn paths_are_compact_and_closed() {
        assert_eq!(line_path(&[(0.0, 1.25), (10.0, 2.0)]), "M0,1.3L10,2");
        assert_eq!(step_path(&[0.0, 1.0, 2.0], &[5.0, 6.0]), "M0,5L1,5L1,6L2,6");
        assert_eq!(step_band(&[0.0, 1.0], &[1.0], &[3.0]), "M0,1L1,1L1,3L0,3Z");
        assert_eq!(step_band(&[0.0], &[], &[]), "");
    }

    #[test]
    fn chain_bars_grow_by_equal_steps_for_equal_ratios() {
        let bars = chain_bars(&[500.0, 1500.0, 4500.0], 300.0, 200.0, 10.0);
        assert_eq!(bars.len(), 3);
        let d1 = bars[1].height - bars[0].height;
        let d2 = bars[2].height - bars[1].height;
        assert!((d1 - d2).abs() < 1e-9);
        assert_eq!(bars[2].y, 10.0, "the tallest bar fills the box");
        let flat = chain_bars(&[5.0, 5.0], 100.0, 100.0, 0.0);
        assert_eq!(flat[0].height, flat[1].height);
    }

    #[test]
    fn the_line_ends_where_it_crosses_the_top_and_names_its_end() {
        let line = [(0.0, 10.0), (0.5, 20.0), (1.0, 120.0), (1.5, 150.0)];
        let Clipped { shown, beyond } = clip_at_top(&line, 1.5, 100.0);
        assert_eq!(shown.len(), 3, "{shown:?}");
        let end = shown[2];
        assert!(
            (end.0 - 0.9).abs() < 1e-12 && end.1 == 100.0,
            "ends on the top edge, where it crosses: {end:?}"
        );
        assert_eq!(beyond, Some((1.5, 150.0)), "the value at the axis' end, off the chart");
        // Below the top throughout: all of it, and nothing to say.
        let Clipped { shown, beyond } = clip_at_top(&line, 0.5, 100.0);
        assert_eq!((shown.len(), beyond), (2, None));
        // Off the top at the start: nothing drawn.
        let Clipped { shown, beyond } = clip_at_top(&[(0.0, 200.0), (1.0, 300.0)], 1.0, 100.0);
        assert_eq!((shown, beyond), (vec![], Some((1.0, 300.0))));
    }
}
