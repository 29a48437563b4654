//! How series map onto colours. The colours themselves live in `static/style.css` (light
//! and dark schemes), where the browser needs them; `tests/palette.rs` reads them from
//! there and checks that the series drawn together stay apart under simulated colour-vision
//! deficiency. A chart with more hops than colours reuses the colours with a dash pattern,
//! so no two series of one chart look alike.

/// Colours in the hop palette (`--hop0` … in the CSS).
pub const HOP_COLOURS: usize = 6;

/// Dash patterns after the solid line (`dash1`, `dash2` in the CSS).
pub const DASHES: usize = 2;

/// The CSS classes of the `i`-th hop's series: its colour and, past the palette, a dash.
pub fn hop_class(i: usize) -> String {
    let dash = (i / HOP_COLOURS) % (DASHES + 1);
    if dash == 0 {
        format!("c-hop{}", i % HOP_COLOURS)
    } else {
        format!("c-hop{} dash{dash}", i % HOP_COLOURS)
    }
}

/// Where a chart writes each series' name beside the series itself (a direct label, so
/// that colour is not the only way to tell series apart): above its highest stretch, the
/// labels that would overlap stacked upwards at least `gap` apart (the lowest keeps its
/// place, so no label is pushed down into the axis). `peaks` are the series' highest points
/// (x, y) in the chart's units, y growing downwards, each label centred on its x and
/// `widths` wide; two labels overlap when their boxes come within `pad` of each other
/// sideways. No label sits above `top` (its baseline): a stack that would rise past it is
/// moved down instead. The answer gives each label's (x, y) in the same order.
pub fn direct_labels(peaks: &[(f64, f64)], widths: &[f64], gap: f64, pad: f64, top: f64) -> Vec<(f64, f64)> {
    let width = |i: usize| widths.get(i).copied().unwrap_or(0.0);
    // Whether label `i` at height `y` touches label `j` where `out` has it.
    let touches = |out: &[(f64, f64)], i: usize, j: usize, y: f64| {
        (out[j].0 - out[i].0).abs() < (width(i) + width(j)) / 2.0 + pad && (y - out[j].1).abs() < gap - 1e-6
    };
    let mut order: Vec<usize> = (0..peaks.len()).collect();
    // Lowest first (largest y), then left to right: ties always resolve the same way.
    order.sort_by(|&a, &b| peaks[b].1.total_cmp(&peaks[a].1).then(peaks[a].0.total_cmp(&peaks[b].0)));
    let mut out: Vec<(f64, f64)> = peaks.iter().map(|&(x, y)| (x, y - 4.0)).collect();
    let mut placed: Vec<usize> = Vec::new();
    for i in order {
        let mut y = out[i].1;
        // Moving up past one label may touch another: until none is touched. Each move
        // passes one label for good (the tolerance keeps `(a - gap) - a`, which rounding
        // can leave a hair under `gap`, from touching `a` again), so at most one move per
        // label placed.
        for _ in 0..=placed.len() {
            let touched = placed.iter().find(|&&j| touches(&out, i, j, y));
            match touched {
                Some(&j) => y = out[j].1 - gap,
                None => break,
            }
        }
        out[i].1 = y;
        placed.push(i);
    }
    // A stack that rose past the drawing's top comes back down, highest first: each label
    // at least at `top`, and `gap` below any higher one it would touch.
    let mut by_height: Vec<usize> = (0..out.len()).collect();
    by_height.sort_by(|&a, &b| out[a].1.total_cmp(&out[b].1).then(a.cmp(&b)));
    for (k, &i) in by_height.iter().enumerate() {
        let mut y = out[i].1.max(top);
        for &j in &by_height[..k] {
            if touches(&out, i, j, y) {
                y = y.max(out[j].1 + gap);
            }
        }
        out[i].1 = y;
    }
    out
}

/// About how wide a direct label of `name` is at `em` units a character (Latin letters a
/// little over half of that, Chinese characters a whole one), with its line mark before it.
pub fn label_width(name: &str, em: f64) -> f64 {
    let text: f64 = name.chars().map(|c| if c.is_ascii() { 0.62 * em } else { em }).sum();
    text + 1.3 * em
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_labels_sit_above_their_peaks_and_never_touch() {
        // Apart: each just above its own peak.
        assert_eq!(
            direct_labels(&[(100.0, 50.0), (300.0, 120.0)], &[80.0, 80.0], 11.0, 0.0, 0.0),
            [(100.0, 46.0), (300.0, 116.0)]
        );
        // Three series peaking at the same place (a retry storm's hops when nothing
        // amplifies): stacked upwards from the lowest, which keeps its place.
        let l = direct_labels(&[(200.0, 80.0), (200.0, 80.0), (210.0, 82.0)], &[80.0; 3], 11.0, 0.0, 0.0);
        for (i, a) in l.iter().enumerate() {
            for b in &l[i + 1..] {
                assert!((a.1 - b.1).abs() >= 11.0 - 1e-6, "{l:?}");
            }
        }
        assert_eq!(l[2], (210.0, 78.0));
        assert!(l.iter().all(|p| p.1 <= 78.0), "none pushed below the lowest peak's label: {l:?}");
        // Where a label's y minus the gap rounds a hair short: still placed, still apart.
        let l = direct_labels(&[(100.0, 80.3), (100.0, 80.3), (100.0, 80.3)], &[90.0; 3], 12.0, 0.0, 0.0);
        assert!(l[0].1 - l[1].1 > 11.99 && l[1].1 - l[2].1 > 11.99, "{l:?}");
        // Long names far apart by their peaks but not by their text: stacked; short ones
        // as far apart stay side by side.
        let (a, b) = (label_width("order-core", 11.0), label_width("recommendations", 11.0));
        let l = direct_labels(&[(500.0, 60.0), (590.0, 62.0)], &[a, b], 12.0, 6.0, 0.0);
        assert!((l[0].1 - l[1].1).abs() >= 12.0 - 1e-6, "{l:?}");
        let l = direct_labels(&[(500.0, 60.0), (590.0, 62.0)], &[30.0, 30.0], 12.0, 6.0, 0.0);
        assert_eq!(l, [(500.0, 56.0), (590.0, 58.0)]);
        assert!(label_width("原始请求", 11.0) > label_width("app", 11.0) + 20.0);
        // Two series peaking at the top: the stack stays inside the drawing, still apart.
        let l = direct_labels(&[(80.0, 26.0), (72.0, 26.0)], &[58.0, 40.0], 12.0, 6.0, 22.0);
        assert!(l.iter().all(|p| p.1 >= 22.0) && (l[0].1 - l[1].1).abs() >= 12.0 - 1e-6, "{l:?}");
    }

    #[test]
    fn up_to_eighteen_hops_look_different() {
        let classes: Vec<String> = (0..HOP_COLOURS * (DASHES + 1)).map(hop_class).collect();
        for (i, a) in classes.iter().enumerate() {
            assert!(classes[i + 1..].iter().all(|b| b != a), "{a} is used twice");
        }
        assert_eq!(hop_class(0), "c-hop0");
        assert_eq!(hop_class(7), "c-hop1 dash1");
    }
}
