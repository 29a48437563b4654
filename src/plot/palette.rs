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
    glyphs_width(name, em) + 1.3 * em
}

/// About how wide `text` is set at `em` units (a Latin letter or digit a little over half
/// an em, a Chinese character a whole one), with nothing before it: [`label_width`]'s text.
pub fn glyphs_width(text: &str, em: f64) -> f64 {
    text.chars().map(|c| if c.is_ascii() { 0.62 * em } else { em }).sum()
}

/// The `textLength` that squeezes `text` set at `em` px into `room` px, if it needs it
/// (SVG text does not wrap or clip: in a narrow box a badge ran over its neighbour), or none.
/// The width is estimated low, a CJK character a full em and any other 0.6 em, so that text
/// that fits is not stretched to the room.
pub fn squeeze(text: &str, em: f64, room: f64) -> Option<String> {
    (text_width(text, em) > room).then(|| format!("{:.1}", room.max(1.0)))
}

/// The width of `text` set at `em` px as [`squeeze`] estimates it (low: a CJK character a
/// full em, any other 0.6 em).
pub fn text_width(text: &str, em: f64) -> f64 {
    text.chars().map(|c| if u32::from(c) >= 0x2E80 { em } else { 0.6 * em }).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_too_wide_for_its_room_is_squeezed_and_other_text_left() {
        assert_eq!(squeeze("尝试 ×3", 10.5, 100.0), None);
        // 2 Chinese characters and 3 others at 10.5 px: 21 + 18.9 = 39.9 px.
        assert_eq!(squeeze("尝试 ×3", 10.5, 40.0), None);
        assert_eq!(squeeze("尝试 ×3", 10.5, 35.0), Some("35.0".to_string()));
        // The admission lab's widest reason in its 192 units of 11-unit type.
        assert_eq!(squeeze("成本超过容量（cost_exceeds_capacity）", 11.0, 192.0), Some("192.0".to_string()));
        assert_eq!(squeeze("x", 10.5, -4.0), Some("1.0".to_string()), "never a negative length");
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
