//! The URL query string: parsing and writing `?page=calculator&lang=zh&layers=2&...`.
//!
//! Pages keep their whole state here so that a link reproduces what someone saw. Parsing
//! is total: any string gives some pairs, and it is the page's job to validate values.

/// Ordered key/value pairs of a query string. Later duplicates win in [`Query::get`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// An empty query.
    pub fn new() -> Self {
        Query::default()
    }

    /// Parses `?a=1&b=x%20y` (the leading `?` is optional; `+` means a space).
    pub fn parse(s: &str) -> Self {
        let s = s.strip_prefix('?').unwrap_or(s);
        let pairs = s
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (decode(k), decode(v))
            })
            .collect();
        Query { pairs }
    }

    /// Parses a link as someone copies it: a whole address
    /// (`https://host/sub/index.html?page=storm&…#top`, its fragment dropped) or its query
    /// alone (`?page=storm&…`, `page=storm&…`).
    pub fn from_link(link: &str) -> Self {
        // A fragment is the page's, never the query's (which writes `#` as `%23`).
        let link = link.trim();
        let link = link.split_once('#').map_or(link, |(l, _)| l);
        let query = match link.split_once('?') {
            // What comes before the `?` is an address: a scheme, a host, a path or nothing.
            Some((before, after))
                if before.is_empty()
                    || before.contains(':')
                    || before.contains('/')
                    || before.ends_with(".html") =>
            {
                after
            }
            _ => link,
        };
        Query::parse(query)
    }

    /// Every key, in order (repeated keys as often as given).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.pairs.iter().map(|(k, _)| k.as_str())
    }

    /// Keys given more than once with different values (the last value is the one read),
    /// each once, in the order first given.
    pub fn repeated(&self) -> Vec<String> {
        let keys: Vec<&str> = self.keys().collect();
        let first = crate::order::first_places(&keys);
        let mut conflict = vec![false; keys.len()];
        for (i, &f) in first.iter().enumerate() {
            if self.pairs[i].1 != self.pairs[f].1 {
                conflict[f] = true;
            }
        }
        keys.iter().zip(conflict).filter(|&(_, c)| c).map(|(k, _)| k.to_string()).collect()
    }

    /// The last value given for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Sets `key` to `value`, replacing earlier values and keeping its position.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        if let Some(i) = self.pairs.iter().position(|(k, _)| k == key) {
            self.pairs[i].1 = value;
            let mut seen = false;
            self.pairs.retain(|(k, _)| {
                if k != key {
                    return true;
                }
                let keep = !seen;
                seen = true;
                keep
            });
        } else {
            self.pairs.push((key.to_string(), value));
        }
    }

    /// Removes every value of `key`.
    pub fn remove(&mut self, key: &str) {
        self.pairs.retain(|(k, _)| k != key);
    }

    /// Every pair, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// Writes `?a=1&b=x%20y`, or an empty string when there are no pairs.
    pub fn to_query_string(&self) -> String {
        if self.pairs.is_empty() {
            return String::new();
        }
        let body: Vec<String> =
            self.pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect();
        format!("?{}", body.join("&"))
    }
}

/// Percent-decodes, treating `+` as a space; malformed escapes are kept literally.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes everything but unreserved characters, the comma and the colon (both
/// allowed in a query by RFC 3986, kept readable for lists such as `attempts=3,3` and
/// `arrivals=0:1:500,0:1:100`).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_given_twice_with_different_values_are_named_once() {
        let q = Query::parse("?workers=3&page=queue&workers=5&lang=en&workers=3&lang=en&seed=1");
        assert_eq!(q.repeated(), ["workers"], "the same value twice (lang) is no conflict");
        assert_eq!(q.get("workers"), Some("3"), "the last is read");
        assert!(Query::parse("?a=1&b=2").repeated().is_empty());
    }

    #[test]
    fn repeated_keys_come_in_the_order_first_given() {
        let q = Query::parse("?b=1&a=1&c=1&a=2&b=2&c=1&b=3");
        assert_eq!(q.repeated(), ["b", "a"]);
    }

    #[test]
    fn round_trips_and_decodes() {
        let q = Query::parse("?page=calculator&lang=zh&attempts=3,3&name=a%20b+c&odd=%zz&x");
        assert_eq!(q.get("page"), Some("calculator"));
        assert_eq!(q.get("attempts"), Some("3,3"));
        assert_eq!(q.get("name"), Some("a b c"));
        assert_eq!(q.get("odd"), Some("%zz"));
        assert_eq!(q.get("x"), Some(""));
        let again = Query::parse(&q.to_query_string());
        assert_eq!(again, q);
    }

    #[test]
    fn set_replaces_in_place_and_drops_duplicates() {
        let mut q = Query::parse("a=1&b=2&a=3");
        assert_eq!(q.get("a"), Some("3"));
        q.set("a", "9");
        assert_eq!(q.to_query_string(), "?a=9&b=2");
        q.remove("b");
        q.set("c", "中文");
        assert_eq!(q.to_query_string(), "?a=9&c=%E4%B8%AD%E6%96%87");
        assert_eq!(Query::parse(&q.to_query_string()).get("c"), Some("中文"));
    }

    #[test]
    fn truncated_escape_is_kept() {
        assert_eq!(Query::parse("a=%4").get("a"), Some("%4"));
        assert_eq!(Query::parse("a=%").get("a"), Some("%"));
    }

    #[test]
    fn a_whole_address_reads_as_its_query() {
        let want = Query::parse("page=storm&preset=chain-3x3&l1.attempts=4");
        for link in [
            "http://127.0.0.1:8080/sub/index.html?page=storm&preset=chain-3x3&l1.attempts=4",
            "https://example.org/lab/?page=storm&preset=chain-3x3&l1.attempts=4#controls",
            "index.html?page=storm&preset=chain-3x3&l1.attempts=4",
            "?page=storm&preset=chain-3x3&l1.attempts=4",
            " page=storm&preset=chain-3x3&l1.attempts=4 ",
            "page=storm&preset=chain-3x3&l1.attempts=4#controls",
            "localhost:8080?page=storm&preset=chain-3x3&l1.attempts=4",
        ] {
            assert_eq!(Query::from_link(link), want, "{link}");
        }
        // A `?` inside a value of a bare query is the value's.
        assert_eq!(Query::from_link("a=b?c").get("a"), Some("b?c"));
    }
}
