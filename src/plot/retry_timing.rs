//! What the retry timing view draws: one histogram per attempt number on a shared axis,
//! and the jitter modes as outlines, written as SVG markup from
//! `model::retry_timing`'s samples. Pure, tested natively; markup rather than Yew
//! elements because the figures are static once drawn and markup is far smaller in the
//! download.

use super::esc;
use super::palette::hop_class;
use super::{Linear, Tenths, nice_max, nice_ticks, step_path};
use crate::i18n::{Lang, T, format_number};
use crate::model::retry_timing::{BINS, Timing};
use crate::policy::retry::Jitter;
use std::fmt::Write;

/// Small-multiple geometry (SVG user units).
const W: f64 = 320.0;
const H: f64 = 132.0;
const ML: f64 = 40.0;
const MR: f64 = 18.0;
const MT: f64 = 8.0;
const MB: f64 = 30.0;

fn ms(us: f64) -> f64 {
    us / 1000.0
}

/// Percent of the sequences in each bin.
pub fn shares(bins: &[u32], sequences: usize) -> Vec<f64> {
    bins.iter().map(|&c| if sequences == 0 { 0.0 } else { f64::from(c) * 100.0 / sequences as f64 }).collect()
}

/// The top of the y axis (percent) for every attempt of a timing.
fn y_top(t: &Timing) -> f64 {
    nice_max(t.attempts.iter().flat_map(|a| shares(&a.bins, t.sequences)).fold(0.0, f64::max))
}

/// Opens an SVG with its axes: x in ms over the timing's axis, y in percent up to `top`.
fn open_svg(out: &mut String, lang: Lang, axis_ms: f64, top: f64, label: &str) -> (Linear, Linear) {
    let xs = Linear::new((0.0, axis_ms.max(1e-3)), (ML, W - MR));
    let ys = Linear::new((0.0, top), (H - MB, MT));
    let _ = write!(
        out,
        "<svg viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\"><g class=\"axis y\">",
        esc(label)
    );
    for t in nice_ticks(0.0, top, 3) {
        let y = ys.map(t);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{ML}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            W - MR,
            Tenths(y),
            Tenths(y),
            ML - 5.0,
            Tenths(y + 4.0),
            format_number(t, 1)
        );
    }
    let _ = write!(
        out,
        "</g><g class=\"axis x\"><line x1=\"{ML}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>",
        W - MR,
        H - MB,
        H - MB
    );
    for t in nice_ticks(0.0, axis_ms, 4) {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            Tenths(xs.map(t)),
            H - MB + 14.0,
            format_number(t, 1)
        );
    }
    let _ = write!(
        out,
        "<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text></g>",
        W - MR,
        H - 2.0,
        esc(lang.t(T::RtAxis))
    );
    (xs, ys)
}

/// Bin edges in pixels.
fn edges(t: &Timing, xs: &Linear) -> Vec<f64> {
    let axis = ms(t.axis_us as f64);
    (0..=BINS).map(|i| xs.map(axis * i as f64 / BINS as f64)).collect()
}

/// One histogram per attempt number, on one shared axis: figures with ids
/// `rt-{side}-a{n}` and their exact minimum, maximum and mean (ms) in `data-*`.
pub fn histograms(lang: Lang, t: &Timing, side: &str) -> String {
    let mut out = String::with_capacity(4_096);
    let top = y_top(t);
    for a in &t.attempts {
        let title = lang.f(T::RtAttempt, &[("n", &a.attempt.to_string())]);
        let (lo, hi, mean) = (ms(a.min_us as f64), ms(a.max_us as f64), ms(a.mean_us));
        let range = lang.f(
            T::RtRange,
            &[
                ("min", &format_number(lo, 1)),
                ("max", &format_number(hi, 1)),
                ("mean", &format_number(mean, 1)),
            ],
        );
        let _ = write!(
            out,
            "<figure class=\"chart rt-hist\" id=\"rt-{side}-a{}\" data-min=\"{lo}\" data-max=\"{hi}\" data-mean=\"{mean}\">\
             <figcaption>{}<span class=\"unit\">{}</span></figcaption>",
            a.attempt,
            esc(&title),
            esc(&range)
        );
        let (xs, ys) = open_svg(&mut out, lang, ms(t.axis_us as f64), top, &format!("{title}: {range}"));
        let e = edges(t, &xs);
        for (i, v) in shares(&a.bins, t.sequences).into_iter().enumerate().filter(|(_, v)| *v > 0.0) {
            let y = ys.map(v);
            let _ = write!(
                out,
                "<rect class=\"rt-bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                Tenths(e[i]),
                Tenths(y),
                Tenths((e[i + 1] - e[i]).max(1.5)),
                Tenths((H - MB - y).max(0.0))
            );
        }
        out.push_str("</svg></figure>");
    }
    out
}

/// The jitter modes (three with a fixed wait), each attempt number an outline in its hop colour: figures with
/// ids `rt-cmp-{side}-{mode}`, then a legend of the attempt numbers.
pub fn comparison(lang: Lang, modes: &[(Jitter, Timing)], side: &str) -> String {
    let mut out = String::with_capacity(4_096);
    for (j, t) in modes {
        let (name, key) = match j {
            Jitter::None => ("none", T::RtJitterNone),
            Jitter::Full => ("full", T::RtJitterFull),
            Jitter::Equal => ("equal", T::RtJitterEqual),
            Jitter::Decorrelated => ("decorrelated", T::RtJitterDecorrelated),
        };
        let _ = write!(
            out,
            "<figure class=\"chart rt-hist rt-mode\" id=\"rt-cmp-{side}-{name}\"><figcaption>{}</figcaption>",
            esc(lang.t(key))
        );
        let (xs, ys) = open_svg(&mut out, lang, ms(t.axis_us as f64), y_top(t), lang.t(key));
        let e = edges(t, &xs);
        for (k, a) in t.attempts.iter().enumerate() {
            let y: Vec<f64> = shares(&a.bins, t.sequences).iter().map(|&v| ys.map(v)).collect();
            let _ = write!(out, "<path class=\"series {}\" d=\"{}\"/>", hop_class(k), step_path(&e, &y));
        }
        out.push_str("</svg></figure>");
    }
    out
}

/// The legend of [`comparison`]: one swatch per attempt number.
pub fn legend(lang: Lang, t: &Timing) -> String {
    let mut out = String::new();
    for (k, a) in t.attempts.iter().enumerate() {
        let _ = write!(
            out,
            "<span class=\"legend-item\"><span class=\"swatch {}\"></span>{}</span>",
            hop_class(k),
            esc(&lang.f(T::RtAttempt, &[("n", &a.attempt.to_string())]))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::retry_timing::{compare_jitter, sample};
    use crate::plot::breakdown::balanced;
    use crate::policy::retry::{Backoff, BackoffUs};

    #[test]
    fn the_figures_are_well_formed_and_carry_the_sampled_bounds() {
        let b = BackoffUs::new(Backoff::Exponential { base_ms: 50.0, cap_ms: 300.0 }, Jitter::Equal);
        let t = sample(&b, 4, 1_000, 1, BINS);
        for lang in [Lang::En, Lang::Zh] {
            let h = histograms(lang, &t, "a");
            assert!(balanced(&h), "{h}");
            assert_eq!(h.matches("<figure").count(), 3, "attempts 2, 3 and 4");
            let a2 = &t.attempts[0];
            assert!(h.contains(&format!("id=\"rt-a-a2\" data-min=\"{}\"", a2.min_us as f64 / 1000.0)));
            let c = comparison(lang, &compare_jitter(&b, 4, 500, 1, BINS), "b");
            assert!(balanced(&c));
            for m in ["none", "full", "equal", "decorrelated"] {
                assert!(c.contains(&format!("id=\"rt-cmp-b-{m}\"")));
            }
            assert_eq!(c.matches("<path").count(), 12, "four modes × three attempt numbers");
            assert!(balanced(&legend(lang, &t)));
        }
        assert_eq!(shares(&[1, 3], 4), vec![25.0, 75.0]);
        assert_eq!(shares(&[1], 0), vec![0.0]);
    }
}
