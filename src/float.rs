//! Reading a decimal number as an `f64`: one function for every field, link value and typed
//! number, the same value natively and in the browser.
//!
//! Natively it is `str::parse::<f64>`. In the browser the same text, checked against the
//! same grammar, is read by JavaScript's `parseFloat`: both round correctly to the nearest
//! `f64`, so both give the same bits (a browser test compares them on thousands of texts),
//! and the page's bundle does not carry `std`'s parser, whose table of powers of five alone
//! is ≈ 15 KB gzipped. (ECMAScript lets an engine round a text of more than 20 significant
//! digits either way; V8, SpiderMonkey and JavaScriptCore round correctly, and the browser
//! test holds the engine it runs on to it.)

/// What a text is under `str::parse::<f64>`'s grammar:
/// `[+-]? (inf | infinity | nan | digits [. digits] [(e|E) [+-]? digits])`, the words in any
/// case, at least one digit before or after the point, no spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    /// A decimal number.
    Number,
    /// `inf` or `infinity`; `true`: negative.
    Infinite(bool),
    /// `nan`; `true`: negative (std keeps the sign bit).
    NotANumber(bool),
    /// Anything else.
    Invalid,
}

fn syntax(s: &str) -> Syntax {
    let b = s.as_bytes();
    let (negative, rest) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if rest.eq_ignore_ascii_case(b"inf") || rest.eq_ignore_ascii_case(b"infinity") {
        return Syntax::Infinite(negative);
    }
    if rest.eq_ignore_ascii_case(b"nan") {
        return Syntax::NotANumber(negative);
    }
    let digits = |from: usize| rest[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(0);
    let mut at = int;
    let mut frac = 0;
    if rest.get(at) == Some(&b'.') {
        frac = digits(at + 1);
        at += 1 + frac;
    }
    if int + frac == 0 {
        return Syntax::Invalid;
    }
    if matches!(rest.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(rest.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exp = digits(at);
        if exp == 0 {
            return Syntax::Invalid;
        }
        at += exp;
    }
    if at == rest.len() { Syntax::Number } else { Syntax::Invalid }
}

/// The longest number text read, in bytes. Correct rounding needs at most 768 significant
/// digits, and this keeps both readers on the same side of their exponent limits: std stops
/// counting an exponent past 65,536 without weighing a long run of zeros before it, where
/// JavaScript reads `0.000…(655,359 zeros)…1e655360` as 1.
pub const MOST_BYTES: usize = 800;

/// The `f64` nearest to decimal text `s` (see [`syntax`]'s grammar), or `None` if `s` is not
/// one or is longer than [`MOST_BYTES`]: otherwise exactly what `s.parse::<f64>().ok()`
/// gives, on every target.
pub fn parse_f64(s: &str) -> Option<f64> {
    if s.len() > MOST_BYTES {
        return None;
    }
    match syntax(s) {
        Syntax::Invalid => None,
        Syntax::Infinite(negative) => Some(if negative { f64::NEG_INFINITY } else { f64::INFINITY }),
        Syntax::NotANumber(negative) => Some(if negative { -f64::NAN } else { f64::NAN }),
        Syntax::Number => Some(nearest(s)),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn nearest(s: &str) -> f64 {
    // The grammar is std's, so this never falls back.
    s.parse().unwrap_or(f64::NAN)
}

#[cfg(target_arch = "wasm32")]
fn nearest(s: &str) -> f64 {
    js_sys::Number::parse_float(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts around the grammar's edges, and garbage.
    const EDGES: &[&str] = &[
        "",
        "+",
        "-",
        ".",
        "e",
        "e5",
        ".e5",
        "1e",
        "1e+",
        "1e-",
        "1.e5",
        ".5e-3",
        "1.",
        ".5",
        "+.5",
        "-.5",
        "0",
        "-0",
        "+0.0",
        "00012",
        "1_000",
        "1,000",
        " 1",
        "1 ",
        "1e5 ",
        "0x10",
        "1f",
        "1.5.2",
        "1e5e5",
        "--1",
        "+-1",
        "inf",
        "-inf",
        "+inf",
        "Inf",
        "INFINITY",
        "-Infinity",
        "infinit",
        "infinityy",
        "nan",
        "NaN",
        "-nan",
        "+NAN",
        "nana",
        "∞",
        "١",
        "1e400",
        "-1e400",
        "1e-400",
        "2.2250738585072011e-308",
        "4.9e-324",
        "2.4e-324",
        "9007199254740993",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "0.1",
        "123456789012345678901234567890",
        "1E5",
        "1E+05",
        "1e-05",
    ];

    #[test]
    fn the_grammar_is_std_s() {
        for s in EDGES {
            assert_eq!(syntax(s) != Syntax::Invalid, s.parse::<f64>().is_ok(), "{s:?}");
        }
    }

    // proptest is a native dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Any text over the grammar's characters (and a few others): accepted exactly when
        /// std accepts it, with std's value.
        #[test]
        fn any_text_reads_as_std_reads_it(s in "[-+0-9.eEinfatyINFATY_ x]{0,12}") {
            proptest::prop_assert_eq!(syntax(&s) != Syntax::Invalid, s.parse::<f64>().is_ok(), "{:?}", s);
            proptest::prop_assert_eq!(parse_f64(&s).map(f64::to_bits), s.parse::<f64>().ok().map(f64::to_bits));
        }
    }

    #[test]
    fn texts_past_the_longest_are_not_read() {
        let long = format!("1.{}", "0".repeat(MOST_BYTES));
        assert_eq!(parse_f64(&long), None);
        let most = format!("1.{}", "0".repeat(MOST_BYTES - 2));
        assert_eq!(parse_f64(&most), Some(1.0));
    }

    #[test]
    fn values_are_std_s() {
        for s in EDGES {
            assert_eq!(parse_f64(s).map(f64::to_bits), s.parse::<f64>().ok().map(f64::to_bits), "{s:?}");
        }
    }
}
