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
    fn up_to_eighteen_hops_look_different() {
        let classes: Vec<String> = (0..HOP_COLOURS * (DASHES + 1)).map(hop_class).collect();
        for (i, a) in classes.iter().enumerate() {
            assert!(classes[i + 1..].iter().all(|b| b != a), "{a} is used twice");
        }
        assert_eq!(hop_class(0), "c-hop0");
        assert_eq!(hop_class(7), "c-hop1 dash1");
    }
}
