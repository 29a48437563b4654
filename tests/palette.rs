//! The chart colours, read from `static/style.css` where the browser takes them, checked the
//! way a colour-blind viewer sees them: every pair of series drawn together stays at least
//! ΔE 20 apart (CIE76 in CIELAB, D65) under normal vision and under simulated protanopia
//! and deuteranopia (Machado, Oliveira & Fernandes 2009, severity 1), and every colour has
//! at least 3:1 contrast with the panel it is drawn on (WCAG 1.4.11), in the light and the
//! dark scheme.
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::plot::palette::HOP_COLOURS;

const MIN_DELTA_E: f64 = 20.0;
const MIN_CONTRAST: f64 = 3.0;

const PROTANOPIA: [[f64; 3]; 3] =
    [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]];
const DEUTERANOPIA: [[f64; 3]; 3] =
    [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]];

fn css() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/static/style.css")).unwrap()
}

/// The value of `--name` in the first block of `text` that defines it.
fn var(text: &str, name: &str) -> [f64; 3] {
    let key = format!("--{name}:");
    let at = text.find(&key).unwrap_or_else(|| panic!("--{name} is not defined"));
    let hex = text[at + key.len()..].trim_start().trim_start_matches('#');
    let hex = &hex[..6];
    let c = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
    [c(0), c(2), c(4)]
}

/// The light scheme is everything before the first dark-scheme block after the series
/// colours' comment; the dark one is that block.
fn schemes() -> [(String, &'static str); 2] {
    let text = css();
    let start = text.find("/* Series colours.").expect("the series colours' comment");
    let rest = &text[start..];
    let dark_at = rest.find("@media (prefers-color-scheme: dark)").unwrap();
    let light = rest[..dark_at].to_string();
    let dark = rest[dark_at..].to_string();
    [(light, "light"), (dark, "dark")]
}

fn to_linear(c: f64) -> f64 {
    let c = c / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

fn to_srgb(c: f64) -> f64 {
    let c = c.clamp(0.0, 1.0);
    255.0 * if c <= 0.003_130_8 { 12.92 * c } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

fn simulate(rgb: [f64; 3], m: &[[f64; 3]; 3]) -> [f64; 3] {
    let l = rgb.map(to_linear);
    let row = |i: usize| to_srgb(m[i][0] * l[0] + m[i][1] * l[1] + m[i][2] * l[2]);
    [row(0), row(1), row(2)]
}

fn lab(rgb: [f64; 3]) -> [f64; 3] {
    let [r, g, b] = rgb.map(to_linear);
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| if t > 0.008856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
    [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
}

fn delta_e(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (a, b) = (lab(a), lab(b));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

fn luminance(rgb: [f64; 3]) -> f64 {
    let [r, g, b] = rgb.map(to_linear);
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The smallest ΔE between two colours of `group` under any of the three visions.
fn closest(group: &[(String, [f64; 3])]) -> (f64, String) {
    let mut worst = (f64::INFINITY, String::new());
    for (i, (na, a)) in group.iter().enumerate() {
        for (nb, b) in &group[i + 1..] {
            for (vision, m) in
                [("normal", None), ("protanopia", Some(&PROTANOPIA)), ("deuteranopia", Some(&DEUTERANOPIA))]
            {
                let (sa, sb) = match m {
                    Some(m) => (simulate(*a, m), simulate(*b, m)),
                    None => (*a, *b),
                };
                let d = delta_e(sa, sb);
                if d < worst.0 {
                    worst = (d, format!("{na} vs {nb} ({vision})"));
                }
            }
        }
    }
    worst
}

#[test]
fn series_drawn_together_stay_apart_for_colour_blind_viewers() {
    let panels = [("light", [255.0, 255.0, 255.0]), ("dark", [0x16 as f64, 0x1d as f64, 0x26 as f64])];
    for ((scheme, name), (_, panel)) in schemes().iter().zip(panels) {
        // The load chart: the hops; the outcome chart and the breaker band: the outcomes.
        let hops: Vec<(String, [f64; 3])> =
            (0..HOP_COLOURS).map(|i| (format!("hop{i}"), var(scheme, &format!("hop{i}")))).collect();
        let outcomes: Vec<(String, [f64; 3])> =
            ["ok", "deg", "fail", "rej"].iter().map(|n| (n.to_string(), var(scheme, n))).collect();
        for (group, colours) in [("hops", &hops), ("outcomes", &outcomes)] {
            let (d, pair) = closest(colours);
            assert!(d >= MIN_DELTA_E, "{name} {group}: {pair} only ΔE {d:.1} apart");
            for (n, c) in colours.iter() {
                let k = contrast(*c, panel);
                assert!(k >= MIN_CONTRAST, "{name} {n}: contrast {k:.2} with the panel");
            }
        }
    }
}

#[test]
fn the_check_sees_a_bad_palette() {
    // The palette this project had before: teal and magenta are one colour to a deuteranope.
    let teal = [0x0f as f64, 0x8a as f64, 0x84 as f64];
    let magenta = [0xbf as f64, 0x39 as f64, 0x89 as f64];
    let (d, pair) = closest(&[("teal".into(), teal), ("magenta".into(), magenta)]);
    assert!(d < 5.0 && pair.contains("deuteranopia"), "{d} {pair}");
}

#[test]
fn the_stability_maps_recovery_bands_darken_band_by_band() {
    // `.cell.rec-N … { fill: #rrggbb; …}`: relative luminance (WCAG) falls from band to band
    // by a contrast ratio of at least 1.2, so the order reads without hue.
    let text = css();
    let lum = |n: usize| {
        let key = format!(".cell.rec-{n},");
        let at = text.find(&key).unwrap_or_else(|| panic!("rec-{n} is not styled"));
        let fill = &text[at..];
        let hex = fill[fill.find("fill: #").expect("a fill") + 7..].get(..6).expect("six digits");
        let c = |i: usize| to_linear(f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()));
        0.2126 * c(0) + 0.7152 * c(2) + 0.0722 * c(4)
    };
    for n in 0..3 {
        let ratio = (lum(n) + 0.05) / (lum(n + 1) + 0.05);
        assert!(ratio >= 1.2, "rec-{n} against rec-{}: {ratio:.2}", n + 1);
    }
}
