//! Where a time chart writes each series' name beside the series itself (a direct label,
//! so that colour is not the only way to tell series apart).
//!
//! A label sits just above the highest point of its own line under its width (or else just
//! below the lowest), first over the middle of its series' highest stretch (a ramp to a
//! plateau is labelled on the plateau), then over its other buckets, highest first. A place
//! is free when no other line runs through the label's text nor through the strip between
//! the label and its line (another line there, as where all the hops lie at 0 together,
//! makes it ambiguous which line the label names), and no label placed before sits there.
//! The series with the fewest free places choose first; a series with none comes last and
//! takes the place off other labels with the fewest lines through its text, then beside it.

/// A series as drawn: one y per bucket in the drawing's units (y growing downwards), the
/// buckets' edges given once for all series.
pub type Drawn<'a> = &'a [f64];

/// The drawing's box: labels stay wholly inside it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
}

/// How far a label's text rises above its baseline and falls below it (descenders), in
/// the drawing's units, for 11-unit text.
const ASCENT: f64 = 9.0;
const DESCENT: f64 = 3.0;
/// Baseline above a line (the text clears the line's stroke) or below it.
const ABOVE: f64 = 5.0;
const BELOW: f64 = ASCENT + 4.0;
/// Sideways room kept between two labels.
const PAD: f64 = 6.0;
/// Sideways room a label keeps from a line (half a stroke and a little).
const SIDE: f64 = 2.0;

/// The room a label's text takes.
#[derive(Clone, Copy, Debug)]
struct LabelBox {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl LabelBox {
    /// With `SIDE` to spare on either side: a line's stroke is wider than its path.
    fn at(x: f64, y: f64, w: f64) -> Self {
        LabelBox { x0: x - w / 2.0 - SIDE, x1: x + w / 2.0 + SIDE, y0: y - ASCENT, y1: y + DESCENT }
    }

    fn meets(&self, o: &LabelBox) -> bool {
        self.x0 < o.x1 + PAD && o.x0 < self.x1 + PAD && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// Whether the step line `ys` over `edges` runs through `b` (its horizontal stretches and
/// the vertical jumps between them, taken together as the span of its y over `b`'s width).
fn crosses(edges: &[f64], ys: &[f64], b: &LabelBox) -> bool {
    // Bucket i spans edges[i]..edges[i + 1]: those that overlap the box's width.
    let from = edges.partition_point(|&e| e <= b.x0).saturating_sub(1);
    let to = edges.partition_point(|&e| e < b.x1).min(ys.len());
    let (lo, hi) = ys
        .get(from..to)
        .unwrap_or_default()
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &y| (lo.min(y), hi.max(y)));
    lo < b.y1 && hi > b.y0
}

/// A place a label may take: its box, its (centre x, baseline y), and how many lines run
/// through its text and (others) through the strip between it and its line.
#[derive(Clone, Copy, Debug)]
struct Place {
    label: LabelBox,
    at: (f64, f64),
    through_text: usize,
    beside: usize,
}

impl Place {
    fn free(&self) -> bool {
        self.through_text == 0 && self.beside == 0
    }
}

/// Each label's (centre x, baseline y), in the order of `series`. `edges` are the buckets'
/// x edges (one more than the longest series), `widths` each label's width, `obstacles`
/// lines that no label may cover but that get none (a limit line).
pub fn place(
    edges: &[f64],
    series: &[Drawn],
    widths: &[f64],
    obstacles: &[Drawn],
    area: Area,
) -> Vec<(f64, f64)> {
    // Each series' places inside the drawing, best first, with the lines each crosses (its
    // own line too: it must not rise or fall through its own label).
    let places: Vec<Vec<Place>> = series
        .iter()
        .enumerate()
        .map(|(s, ys)| {
            let w = widths.get(s).copied().unwrap_or(0.0).min(area.right - area.left);
            candidates(edges, ys, w, area)
                .into_iter()
                .map(|(x, y, line)| (LabelBox::at(x, y, w), (x, y), line))
                .filter(|(b, _, _)| b.y0 >= area.top && b.y1 <= area.bottom)
                .map(|(label, at, line)| {
                    // The label claims its text and the strip down (or up) to its line: another
                    // line there (the same value, or between) makes it ambiguous which line it
                    // names, as all the hops' lines lying at 0 together do.
                    let claim = if at.1 < line {
                        LabelBox { y1: line + 2.0, ..label }
                    } else {
                        LabelBox { y0: line - 2.0, ..label }
                    };
                    let others = || {
                        series.iter().enumerate().filter(|&(o, _)| o != s).map(|(_, l)| l).chain(obstacles)
                    };
                    // Its own line counts only through its text (a jump within its width).
                    let through_text = others().filter(|l| crosses(edges, l, &label)).count()
                        + usize::from(crosses(edges, ys, &label));
                    let beside = others().filter(|l| crosses(edges, l, &claim)).count();
                    Place { label, at, through_text, beside }
                })
                .collect()
        })
        .collect();
    // The series with the fewest free places choose first, so that one with many does not
    // take another's only place.
    let order =
        crate::order::order_by(series.len(), |s| places[s].iter().filter(|p| p.free()).count() as u64);
    let mut placed: Vec<LabelBox> = Vec::new();
    // A series with no place inside the drawing at all: its text at the top left corner.
    let mut out: Vec<(f64, f64)> = (0..series.len())
        .map(|s| (area.left + widths.get(s).copied().unwrap_or(0.0) / 2.0, area.top + ASCENT))
        .collect();
    // Series `s`'s best place against the labels placed: off the labels if it can be, then
    // with the fewest lines through its text, then beside it.
    let best = |s: usize, placed: &[LabelBox]| {
        places[s]
            .iter()
            .map(|p| ((placed.iter().any(|o| o.meets(&p.label)), p.through_text, p.beside), p))
            .reduce(|best, p| if p.0 < best.0 { p } else { best })
    };
    // First every label that finds a free place; then the others, so that none takes a
    // free place another needed.
    let mut rest = Vec::new();
    for s in order {
        match best(s, &placed) {
            Some(((false, 0, 0), p)) => {
                placed.push(p.label);
                out[s] = p.at;
            }
            _ => rest.push(s),
        }
    }
    for s in rest {
        if let Some((_, p)) = best(s, &placed) {
            let (label, at) = clear_of(p, &placed, edges, obstacles, area);
            placed.push(label);
            out[s] = at;
        }
    }
    out
}

/// Place `p`, where it meets a label placed before or an obstacle runs through it (another
/// text's edges: a fault window's label along the top), moved up or down a line of text at
/// a time (nearest first, up before down) to the first height inside `area` where it meets
/// neither, else where it meets no label; as it was where there is none. Only for a label
/// with no free place left: a line through its text reads, text over text does not (a
/// chart drawn narrow, such as a phone's or compare mode's halves, leaves fewer places).
fn clear_of(
    p: &Place,
    placed: &[LabelBox],
    edges: &[f64],
    obstacles: &[Drawn],
    area: Area,
) -> (LabelBox, (f64, f64)) {
    let meets = |b: &LabelBox| placed.iter().any(|o| o.meets(b));
    let blocked = |b: &LabelBox| obstacles.iter().any(|l| crosses(edges, l, b));
    if !meets(&p.label) && !blocked(&p.label) {
        return (p.label, p.at);
    }
    let step = ASCENT + DESCENT;
    let rows = ((area.bottom - area.top) / step).ceil() as i32;
    let shifted: Vec<(LabelBox, (f64, f64))> = (1..=rows)
        .flat_map(|k| [-k, k])
        .map(|k| {
            let dy = f64::from(k) * step;
            (LabelBox { y0: p.label.y0 + dy, y1: p.label.y1 + dy, ..p.label }, (p.at.0, p.at.1 + dy))
        })
        .filter(|(b, _)| b.y0 >= area.top && b.y1 <= area.bottom && !meets(b))
        .collect();
    let clear = shifted.iter().find(|(b, _)| !blocked(b));
    match clear.or(if meets(&p.label) { shifted.first() } else { None }) {
        Some(&found) => found,
        None => (p.label, p.at),
    }
}

/// Where a label of width `w` may go on the line `ys` (its centre x, its baseline y, and the
/// y of the line's nearest point under it), best first: over the middle of the
/// series' highest stretch (its buckets within 5 % of its peak), then over each bucket,
/// highest first (nearest that middle among equals), each above the line and then below it.
fn candidates(edges: &[f64], ys: &[f64], w: f64, area: Area) -> Vec<(f64, f64, f64)> {
    let n = ys.len().min(edges.len().saturating_sub(1));
    if n == 0 {
        return Vec::new();
    }
    let peak = ys[..n].iter().copied().fold(f64::INFINITY, f64::min);
    let base = area.bottom;
    // Within 5 % of the peak's height above the x axis.
    let near_top = |y: f64| base - y >= 0.95 * (base - peak);
    let top: Vec<usize> = (0..n).filter(|&i| near_top(ys[i])).collect();
    // No y near the peak (every y NaN): no place.
    let Some(&mid) = top.get(top.len() / 2) else { return Vec::new() };
    // Highest first (to a 16th of a unit), then nearest the middle (fewer than 2²⁰ buckets).
    let mut order = crate::order::order_by(n, |i| {
        (((ys[i].max(0.0) * 16.0).round() as u64) << 20) | (i.abs_diff(mid) as u64 & 0xF_FFFF)
    });
    order.retain(|&i| i != mid);
    order.insert(0, mid);
    // Places about 4 units apart are enough: of narrower buckets, the highest of each run
    // of `k` (a run of 400 buckets would otherwise give 800 places to test).
    let k = ((4.0 * n as f64 / (edges[n] - edges[0]).max(1.0)).ceil() as usize).max(1);
    let mut taken = vec![false; n / k + 1];
    order.retain(|&i| !std::mem::replace(&mut taken[i / k], true));
    let half = w / 2.0;
    let centre = |i: usize| {
        ((edges[i] + edges[i + 1]) / 2.0).clamp(area.left + half, (area.right - half).max(area.left + half))
    };
    // Above the highest point of its line under the label's width, or below the lowest: a
    // jagged or rising line then never runs through its own label.
    let span = |x: f64| {
        let from = edges.partition_point(|&e| e <= x - half).saturating_sub(1);
        let to = edges.partition_point(|&e| e < x + half).min(n);
        ys[from.min(to)..to]
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &y| (lo.min(y), hi.max(y)))
    };
    order
        .iter()
        .flat_map(|&i| {
            let x = centre(i);
            let (top, bottom) = span(x);
            [(x, top - ABOVE, top), (x, bottom + BELOW, bottom)]
        })
        .filter(|p| p.1.is_finite())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: Area = Area { left: 0.0, right: 400.0, top: 0.0, bottom: 200.0 };

    fn edges(n: usize, step: f64) -> Vec<f64> {
        (0..=n).map(|i| i as f64 * step).collect()
    }

    fn boxes(at: &[(f64, f64)], widths: &[f64]) -> Vec<LabelBox> {
        at.iter().zip(widths).map(|(&(x, y), &w)| LabelBox::at(x, y, w)).collect()
    }

    #[test]
    fn a_lone_series_is_labelled_over_its_plateau() {
        // A ramp to a plateau over buckets 4–7.
        let ys = [190.0, 150.0, 110.0, 70.0, 50.0, 50.0, 50.0, 50.0];
        let e = edges(8, 50.0);
        let at = place(&e, &[&ys], &[60.0], &[], AREA);
        assert_eq!(at, [(325.0, 45.0)], "over the middle of the plateau, 5 units above it");
    }

    #[test]
    fn labels_of_series_peaking_together_keep_off_each_others_lines() {
        // Four series that all peak in the first bucket and then fall to the axis at
        // different heights: the old rule stacked the four labels over bucket 0, across
        // the higher lines.
        let e = edges(10, 40.0);
        let a = [20.0, 20.0, 120.0, 120.0, 120.0, 120.0, 120.0, 190.0, 190.0, 190.0];
        let b = [40.0, 40.0, 150.0, 150.0, 150.0, 150.0, 150.0, 190.0, 190.0, 190.0];
        let c = [60.0, 60.0, 170.0, 170.0, 170.0, 170.0, 170.0, 190.0, 190.0, 190.0];
        let d = [80.0, 80.0, 185.0, 185.0, 185.0, 185.0, 185.0, 195.0, 195.0, 195.0];
        let series: [&[f64]; 4] = [&a, &b, &c, &d];
        let widths = [50.0; 4];
        let at = place(&e, &series, &widths, &[], AREA);
        let bs = boxes(&at, &widths);
        for (i, b) in bs.iter().enumerate() {
            for (j, l) in series.iter().enumerate() {
                assert!(i == j || !crosses(&e, l, b), "label {i} at {:?} crosses line {j}", at[i]);
            }
            for o in &bs[i + 1..] {
                assert!(!b.meets(o), "labels overlap: {at:?}");
            }
            // The text inside the drawing (the box keeps `SIDE` more from lines).
            assert!(
                b.y0 >= AREA.top
                    && b.y1 <= AREA.bottom
                    && b.x0 + SIDE >= AREA.left
                    && b.x1 - SIDE <= AREA.right
            );
        }
    }

    #[test]
    fn a_label_keeps_off_an_obstacle_and_its_own_jumps() {
        let e = edges(4, 100.0);
        // Flat at 100, with a limit line at 97: above would cover the limit; below is free.
        let ys = [100.0; 4];
        let limit = [97.0; 4];
        let at = place(&e, &[&ys], &[60.0], &[&limit], AREA);
        assert_eq!(at[0].1, 100.0 + BELOW);
        // A spike one bucket wide and narrower than the label: the label does not straddle
        // the jump on either side.
        let e = edges(8, 10.0);
        let spike = [150.0, 150.0, 150.0, 30.0, 150.0, 150.0, 150.0, 150.0];
        let at = place(&e, &[&spike], &[40.0], &[], AREA);
        let b = LabelBox::at(at[0].0, at[0].1, 40.0);
        assert!(!crosses(&e, &spike, &b), "{at:?}");
    }

    #[test]
    fn a_series_with_one_free_place_chooses_before_one_with_many() {
        // B's one free place is over bucket 0 (lines at 157 and 110/170 shut it out
        // everywhere else); A, wide, peaks over bucket 1, where its label would touch B's,
        // and is free over its long stretch at 150. Taken in order, A would take its peak
        // and leave B nowhere.
        let e = edges(8, 50.0);
        let a = [150.0, 95.0, 150.0, 150.0, 150.0, 150.0, 150.0, 150.0];
        let b = [100.0, 160.0, 160.0, 160.0, 160.0, 160.0, 160.0, 160.0];
        let o1 = [1000.0, 157.0, 157.0, 157.0, 157.0, 157.0, 157.0, 157.0];
        let o2 = [110.0, 170.0, 170.0, 170.0, 170.0, 170.0, 170.0, 170.0];
        let widths = [80.0, 40.0];
        let at = place(&e, &[&a, &b], &widths, &[&o1, &o2], AREA);
        assert_eq!(at[1], (25.0, 95.0), "B over its only free place");
        let bs = boxes(&at, &widths);
        assert!(!bs[0].meets(&bs[1]), "{at:?}");
        for label in &bs {
            assert!([&o1[..], &o2[..]].iter().all(|l| !crosses(&e, l, label)), "{at:?}");
        }
    }

    #[test]
    fn a_label_with_no_free_place_takes_none_that_another_needed() {
        // The retry-storm lesson's jitter step as drawn: offered and client on one line,
        // gateway just above them, order and payment higher. Offered and client have no
        // free place; taking gateway's only one, as client did, put gateway on order's line.
        let e = [52.0, 147.7, 243.3, 339.0, 434.7, 530.3, 626.0];
        let offered = [127.2, 140.0, 140.0, 140.0, 140.0, 140.0];
        let gateway = [125.9, 128.3, 135.8, 133.8, 137.8, 140.0];
        let order = [100.3, 111.9, 123.0, 122.0, 128.3, 139.4];
        let payment = [23.5, 62.4, 84.2, 86.8, 100.6, 137.0];
        let series: [&[f64]; 5] = [&offered, &offered, &gateway, &order, &payment];
        let names = ["offered", "client", "gateway", "order", "payment"];
        let widths: Vec<f64> = names.iter().map(|n| crate::plot::palette::label_width(n, 11.0)).collect();
        let area = Area { left: 52.0, right: 626.0, top: 12.0, bottom: 140.0 };
        let at = place(&e, &series, &widths, &[], area);
        let bs = boxes(&at, &widths);
        for (i, b) in bs.iter().enumerate() {
            // Offered and client share one line: neither has a place of its own.
            if !["offered", "client"].contains(&names[i]) {
                let crossed: Vec<_> =
                    (0..5).filter(|&j| crosses(&e, series[j], b)).map(|j| names[j]).collect();
                assert!(crossed.is_empty(), "{} crosses {crossed:?}: {at:?}", names[i]);
            }
            for o in &bs[i + 1..] {
                assert!(!b.meets(o), "labels overlap: {at:?}");
            }
        }
    }

    #[test]
    fn a_label_goes_where_its_line_is_its_own() {
        // A and B lie together at 100 except where B rises over buckets 6–7: A's label over
        // the shared stretch would name either line, so it goes over bucket 6, where A's
        // line is alone.
        let e = edges(8, 50.0);
        let a = [100.0; 8];
        let b = [100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 60.0, 60.0];
        let at = place(&e, &[&a, &b], &[40.0, 40.0], &[], AREA);
        assert_eq!(at[0], (325.0, 95.0), "{at:?}");
        assert_eq!(at[1].1, 55.0, "B over its own stretch: {at:?}");
    }

    #[test]
    fn nowhere_free_still_gives_every_label_a_place_inside() {
        // Three identical lines filling the drawing: every place crosses two of them.
        let e = edges(2, 200.0);
        let ys = [100.0, 100.0];
        let at = place(&e, &[&ys, &ys, &ys], &[80.0; 3], &[], AREA);
        assert_eq!(at.len(), 3);
        let bs = boxes(&at, &[80.0; 3]);
        assert!(bs.iter().all(|b| b.y0 >= AREA.top && b.y1 <= AREA.bottom));
        assert!(!bs[0].meets(&bs[1]), "labels still apart where they can be: {at:?}");
        // Room for one label across: three lines lying together have two places each, one
        // above and one below; the third label goes a line of text higher than the first.
        let narrow = Area { right: 100.0, ..AREA };
        let flat = [100.0, 100.0];
        let at = place(&edges(2, 50.0), &[&flat, &flat, &flat], &[90.0; 3], &[], narrow);
        let bs = boxes(&at, &[90.0; 3]);
        assert!(
            !bs[0].meets(&bs[1]) && !bs[0].meets(&bs[2]) && !bs[1].meets(&bs[2]),
            "no text over text where the drawing has room above: {at:?}"
        );
        assert!(bs.iter().all(|b| b.y0 >= narrow.top && b.y1 <= narrow.bottom), "{at:?}");
        // Its line hemmed in above and below by another text's edges (obstacles): the label
        // goes a line higher, clear of them, rather than over that text.
        let (above, below) = ([92.0, 92.0], [110.0, 110.0]);
        let at = place(&edges(2, 50.0), &[&flat], &[90.0], &[&above, &below], narrow);
        let b = boxes(&at, &[90.0])[0];
        let e = edges(2, 50.0);
        assert!(!crosses(&e, &above, &b) && !crosses(&e, &below, &b), "off the other text: {at:?}");
        // Too narrow for three side by side, too low for them one above another: the last
        // keeps its place over the others (text over text, but inside the drawing).
        let low = Area { bottom: 20.0, ..AREA };
        let at = place(&e, &[&[10.0, 10.0], &[10.0, 10.0], &[10.0, 10.0]], &[390.0; 3], &[], low);
        assert!(boxes(&at, &[390.0; 3]).iter().all(|b| b.y0 >= low.top && b.y1 <= low.bottom), "{at:?}");
        // No buckets, or no number: a place all the same, its text inside the drawing.
        assert_eq!(place(&e, &[&[]], &[40.0], &[], AREA), [(20.0, ASCENT)]);
        assert_eq!(place(&e, &[&[f64::NAN, f64::NAN]], &[40.0], &[], AREA), [(20.0, ASCENT)]);
    }
}
