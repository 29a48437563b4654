//! Messages for scenario files that do not parse: the field's JSON path, what the file says
//! there, and what the field accepts (for numbers, the range and unit of
//! [`ranges`](super::ranges)), in the same form as a validation error.

use super::ranges;
use crate::error::{Allowed, FieldError, Rule};

/// What a file holds where a message quotes no value of its own: a key given twice.
pub const GOT_TWICE: &str = "twice";
/// A required key left out.
pub const GOT_NOTHING: &str = "nothing";
/// A list where an object or a number was wanted.
pub const A_LIST: &str = "a list";
/// A number, as serde's `f64`, `u32`… are said.
pub const A_NUMBER: &str = "a number";
/// An object, as serde's `struct Name` is said (with the name in brackets).
pub const AN_OBJECT: &str = "an object";
/// A tagged object (`internally tagged enum Name`), with the name in brackets.
pub const A_TAGGED_OBJECT: &str = "an object with its \"kind\"";

/// The error for `text` failing to parse as a scenario.
pub fn error(text: &str, e: &serde_path_to_error::Error<serde_json::Error>) -> FieldError {
    // A list at the top is not a scenario: say so, not what its first item is not.
    if text.trim_start().starts_with('[') {
        return FieldError::new(
            "(file)",
            A_LIST,
            rule(Rule::Expected, &expected("expected struct Scenario")),
        );
    }
    let path = e.path().to_string();
    let inner = e.inner();
    // serde_json appends " at line L column C"; keep the message, report the place apart.
    let full = inner.to_string();
    let msg = full.split(" at line ").next().unwrap_or(&full).to_string();
    let place = format!("line {} column {}", inner.line(), inner.column());
    let field = if path == "." || path == "?" { String::new() } else { path.clone() };
    let join = |key: &str| if field.is_empty() { key.to_string() } else { format!("{field}.{key}") };
    if let Some(key) = between(&msg, "unknown field `", "`") {
        let known =
            msg.split_once(", expected ").map_or("none here".to_string(), |(_, k)| k.replace('`', ""));
        let known = if msg.contains("there are no fields") { "no keys here".to_string() } else { known };
        // The path already ends with the unknown key when serde got that far.
        let at = if path.rsplit('.').next() == Some(key) { field.clone() } else { join(key) };
        return FieldError::new(at, format!("{key:?}"), rule(Rule::KnownKey, &known));
    }
    if let Some(key) = between(&msg, "duplicate field `", "`") {
        return FieldError::new(join(key), GOT_TWICE, Allowed::rule(Rule::KeyOnce));
    }
    if let Some(key) = between(&msg, "missing field `", "`") {
        return FieldError::new(join(key), GOT_NOTHING, rule(Rule::Required, ""));
    }
    if let Some(word) = between(&msg, "unknown variant `", "`") {
        let choices = msg
            .split_once("expected one of ")
            .or_else(|| msg.split_once("expected "))
            .map(|(_, rest)| rest.split(", ").map(|c| c.trim_matches('`').to_string()).collect())
            .unwrap_or_default();
        return FieldError::new(or_file(&field), format!("{word:?}"), Allowed::OneOf { choices });
    }
    if (inner.is_syntax() && !msg.starts_with("number out of range")) || inner.is_eof() {
        return FieldError::new(
            or_file(&field),
            place.clone(),
            rule(Rule::ValidJson, &format!("{msg} at {place}")),
        );
    }
    let value = between(&msg, "`", "`")
        .map(str::to_string)
        .or_else(|| {
            // serde's names for JSON's kinds, in the words the rest of the messages use.
            between(&msg, "invalid type: ", ",").map(|kind| match kind {
                "sequence" => A_LIST.to_string(),
                "map" => AN_OBJECT.to_string(),
                other => other.to_string(),
            })
        })
        .unwrap_or_else(|| token_at(text, inner.line(), inner.column()));
    // Inside a tagged object (a distribution, a backoff) the path stops at the object: find
    // the numeric field in it that holds something other than a number.
    let (path, field) = match numeric_key_not_a_number(text, &path, msg.starts_with("invalid type: null")) {
        Some(key) => (format!("{field}.{key}"), format!("{field}.{key}")),
        None => (path, field),
    };
    // A scenario's seed is any 64-bit whole number, as the pages' and the CLI's.
    if path == "seed" {
        return FieldError::new(field, value, Allowed::integer(0, u64::MAX));
    }
    match ranges::for_path(&path) {
        Some(range) => range.error(&field, value),
        None => FieldError::new(or_file(&field), value, rule(Rule::Expected, &expected(&msg))),
    }
}

/// What serde expected, in words: `expected struct Server` → "an object (Server)".
fn expected(msg: &str) -> String {
    let Some((_, what)) = msg.split_once("expected ") else { return msg.to_string() };
    if let Some(name) = what.strip_prefix("struct ") {
        format!("{AN_OBJECT} ({name})")
    } else if let Some(name) = what.strip_prefix("internally tagged enum ") {
        format!("{A_TAGGED_OBJECT} ({name})")
    } else if what.starts_with("a sequence") {
        A_LIST.to_string()
    } else if matches!(what, "f64" | "u32" | "u64" | "i64") {
        A_NUMBER.to_string()
    } else {
        what.to_string()
    }
}

/// In the object at `path`, the first key with a numeric range whose value is not a number
/// or is out of its range; failing that, when serde refused a null (`null_refused`), the
/// one numeric key that holds null.
fn numeric_key_not_a_number(text: &str, path: &str, null_refused: bool) -> Option<String> {
    let mut v: &serde_json::Value = &serde_json::from_str(text).ok()?;
    let root = v.clone();
    v = &root;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, index) = match part.split_once('[') {
            Some((k, i)) => (k, i.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        v = v.get(key)?;
        if let Some(i) = index {
            v = v.get(i)?;
        }
    }
    let obj = v.as_object()?;
    let range = |k: &str| ranges::for_path(&format!("{path}.{k}"));
    // Not a number first (serde's error is about it, whatever else is wrong); then a number
    // its field's type cannot hold (serde names only the object): a negative, fractional or
    // huge count.
    // A null where a number is wanted: the one numeric key that holds null (with several,
    // some may be optional ones that take null, so the object is named instead).
    let nulls: Vec<&String> =
        obj.iter().filter(|(k, val)| range(k).is_some() && val.is_null()).map(|(k, _)| k).collect();
    obj.iter()
        .find(|(k, val)| range(k).is_some() && !val.is_number() && !val.is_null())
        .or_else(|| {
            obj.iter().find(|(k, val)| range(k).is_some_and(|r| val.as_f64().is_some_and(|x| !r.accepts(x))))
        })
        .map(|(k, _)| k.clone())
        .or_else(|| (nulls.len() == 1 && null_refused).then(|| nulls[0].clone()))
}

fn rule(rule: Rule, detail: &str) -> Allowed {
    Allowed::Rule { rule, detail: detail.to_string() }
}

fn or_file(field: &str) -> String {
    if field.is_empty() { "(file)".to_string() } else { field.to_string() }
}

/// The text between the first `open` and the next `close` after it.
fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = s.find(open)? + open.len();
    let len = s[start..].find(close)?;
    Some(&s[start..start + len])
}

/// The JSON token that ends at `line`, `column` (1-based), e.g. the number `1e999`.
fn token_at(text: &str, line: usize, column: usize) -> String {
    let Some(l) = text.lines().nth(line.saturating_sub(1)) else { return String::new() };
    let end = l.char_indices().nth(column).map_or(l.len(), |(i, _)| i);
    let head = &l[..end];
    let start = head.rfind([':', ',', '[', ' ']).map_or(0, |i| i + 1);
    head[start..].trim().trim_end_matches([',', '}', ']']).to_string()
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    fn err(text: &str) -> String {
        Scenario::from_json(text).unwrap_err().to_string()
    }

    const BASE: &str = r#"{"load": {"pattern": "batch", "requests": 1},
 "layers": [{"name": "a", "server": {"workers": 5}, "client": {"retry": {"max_attempts": 1}}}],
 "leaf": {"name": "b", "work": {"dist": "constant", "ms": 1}}}"#;

    #[test]
    fn a_good_file_parses() {
        assert!(Scenario::from_json(BASE).is_ok());
    }

    #[test]
    fn a_file_that_is_a_list_is_told_it_must_be_an_object() {
        assert_eq!(err("[1, 2]"), "(file): got a list, allowed an object (Scenario)");
    }

    #[test]
    fn type_errors_name_the_path_and_range() {
        let e = err(&BASE.replace(r#""workers": 5"#, r#""workers": -1"#));
        assert_eq!(e, "layers[0].server.workers: got -1, allowed a whole number from 1 to 1000000");
        let e = err(&BASE.replace(r#""ms": 1"#, r#""ms": 1e999"#));
        assert_eq!(e, "leaf.work.ms: got 1e999, allowed a number from 0 to 86400000 (ms)");
        let e = err(&BASE.replace(r#""ms": 1"#, r#""ms": "NaN""#));
        assert_eq!(e, "leaf.work.ms: got string \"NaN\", allowed a number from 0 to 86400000 (ms)");
        // A count its type cannot hold, inside a tagged object (serde names only the object).
        let e = err(&BASE.replace(r#"{"load""#, r#"{"seed": -1, "load""#));
        assert_eq!(e, "seed: got -1, allowed a whole number from 0 to 18446744073709551615");
        // The key serde's error is about, not another one out of range.
        let load = r#"{"pattern": "poisson", "duration_ms": 0, "rate_per_s": "fast"}"#;
        let e = err(&BASE.replace(r#"{"pattern": "batch", "requests": 1}"#, load));
        assert!(e.starts_with("load.rate_per_s: got string \"fast\""), "{e}");
        for (bad, shown) in [("-5", "-5"), ("1.5", "1.5"), ("1e30", "1e+30")] {
            let e = err(&BASE.replace(r#""requests": 1"#, &format!(r#""requests": {bad}"#)));
            assert_eq!(e, format!("load.requests: got {shown}, allowed a whole number from 1 to 10000000"));
        }
    }

    #[test]
    fn a_null_number_in_a_tagged_object_is_named_by_its_key() {
        // serde names only the tagged object (the distribution, the load pattern).
        let e = err(&BASE.replace(r#""ms": 1"#, r#""ms": null"#));
        assert_eq!(e, "leaf.work.ms: got null, allowed a number from 0 to 86400000 (ms)");
        let e = err(&BASE.replace(r#""requests": 1"#, r#""requests": null"#));
        assert!(e.starts_with("load.requests: got null, allowed a whole number"), "{e}");
    }

    #[test]
    fn a_key_given_twice_is_named_at_its_place() {
        let e = err(&BASE.replace(r#"{"load""#, r#"{"seed": 1, "seed": 2, "load""#));
        assert_eq!(
            e,
            "seed: got twice, allowed each key once in an object (which of two values wins differs between JSON readers)"
        );
        let e = err(&BASE.replace(r#""workers": 5"#, r#""workers": 5, "workers": 6"#));
        assert!(e.starts_with("layers[0].server.workers: got twice"), "{e}");
    }

    #[test]
    fn unknown_keys_are_refused_even_in_unit_variants() {
        let e = err(&BASE
            .replace(r#""max_attempts": 1"#, r#""max_attempts": 1, "backoff": {"kind": "none", "x": 1}"#));
        assert!(e.starts_with("layers[0].client.retry.backoff.x: got \"x\""), "{e}");
        let e = err(&BASE.replace(r#""requests": 1"#, r#""requests": 1, "zzz": 2"#));
        assert!(e.starts_with("load.zzz"), "{e}");
        let e = err(&BASE.replace(r#""pattern": "batch""#, r#""pattern": "burst""#));
        assert!(e.contains("burst") && e.contains("batch, constant, poisson"), "{e}");
        let e = err(r#"{"load": {"pattern": "batch", "requests": 1}}"#);
        assert!(e.starts_with("layers: got nothing"), "{e}");
        let e = err("{\"load\": ");
        assert!(e.starts_with("load: got line 1 column 9, allowed valid JSON"), "{e}");
        let e = err("[]");
        assert!(e.starts_with("(file): got"), "{e}");
    }
}
