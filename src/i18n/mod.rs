//! Every user-visible string, in English and Simplified Chinese.
//!
//! Texts are keyed by the [`T`] enum, generated from one table per area, so a key without
//! both translations does not compile. Parameterised texts use `{name}` placeholders,
//! filled by [`fill`]; a native test checks both languages use the same placeholders.

mod table;

mod cli;

pub use cli::Cli;
pub use table::T;

/// A key of a text table: its text in each language.
pub trait Text: Copy {
    /// English text.
    fn en(self) -> &'static str;
    /// Simplified Chinese text.
    fn zh(self) -> &'static str;
}

use crate::error::{Allowed, FieldError, Rule};
use serde::{Deserialize, Serialize};

/// The two languages the product speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Both languages, in the order the switch shows them.
    pub const ALL: [Lang; 2] = [Lang::Zh, Lang::En];

    /// The code used in URLs and storage (`en`, `zh`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The BCP 47 tag for the `lang` attribute of the page.
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The word for one stage of a policy stack, as badges, captions and stories print it.
    pub fn stage_word(self, stage: crate::policy::stack::Stage) -> &'static str {
        use crate::policy::stack::Stage;
        self.t(match stage {
            Stage::Retry => T::StageRetry,
            Stage::Deadline => T::BadgeDeadline,
            Stage::RetryBudget => T::BadgeBudget,
            Stage::Breaker => T::BadgeBreaker,
            Stage::Timeout => T::BadgeTimeout,
            Stage::Bulkhead => T::BadgeBulkhead,
        })
    }

    /// Reads a code or a browser language tag: `zh`, `zh-CN`, `zh-Hans-SG` → Chinese;
    /// `en`, `en-GB` → English; anything else → `None`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        match primary.as_str() {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The default for a browser whose preferred languages are `tags`, most preferred
    /// first: the first we speak, else English.
    pub fn from_browser<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter().find_map(Lang::from_tag).unwrap_or(Lang::En)
    }

    /// The text for `key` in this language.
    pub fn t(self, key: impl Text) -> &'static str {
        match self {
            Lang::En => key.en(),
            Lang::Zh => key.zh(),
        }
    }

    /// A service's name as shown. The presets' service names have a name in each language
    /// (the English one is the name the scenario, the report and the CLI use), wherever
    /// they come from: a scenario file's `order` is shown as 订单服务 too. A name the layer
    /// editor numbers (`service-4`, `side-1-2`) is numbered in this language; any other
    /// name is shown as written.
    pub fn service(self, name: &str) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow;
        if self == Lang::En {
            return Cow::Borrowed(name);
        }
        if let Some(k) = SERVICES.iter().find(|k| k.en() == name) {
            return Cow::Borrowed(self.t(*k));
        }
        for (k, parts) in NUMBERED_SERVICES {
            if let Some(n) = numbered(k.en(), parts, name) {
                return Cow::Owned(self.f(k, &[("n", n)]));
            }
        }
        Cow::Borrowed(name)
    }

    /// A client (caller → callee) as shown, from its two services' names.
    pub fn client(self, caller: &str, callee: &str) -> String {
        format!("{} → {}", self.service(caller), self.service(callee))
    }

    /// A percentage as this language writes it (`50 %`, `50%`), from its number's text.
    pub fn percent(self, number: &str) -> String {
        self.f(T::PercentValue, &[("n", number)])
    }

    /// A count with its unit, the unit singular for one where the language has a singular
    /// (`1 call`, `5 calls`; `1 次调用`): "1 calls" had read as a typo on the breaker lab.
    pub fn count(self, n: f64, unit: T) -> String {
        let singular = match unit {
            T::UnitCalls => Some(T::UnitCall),
            T::UnitRequests => Some(T::UnitRequest),
            T::UnitTokens => Some(T::UnitToken),
            T::UnitCredits => Some(T::UnitCredit),
            T::UnitWorkers => Some(T::UnitWorker),
            _ => None,
        };
        let unit = singular.filter(|_| n == 1.0).unwrap_or(unit);
        format!("{} {}", format_number(n, 2), self.t(unit))
    }

    /// A figure's percentage (`value` in percent: 68.571… → `68.57 %`), as every page's
    /// figures write it and the lessons that quote them: one precision, so that a step's
    /// narration and the table beside it read the same.
    pub fn percent_figure(self, value: f64) -> String {
        self.percent(&format_number(value, 2))
    }

    /// The text for `key` with its `{name}` placeholders filled. In Chinese a value that
    /// starts or ends with a Latin letter or digit is set off by a space from a Chinese
    /// character it meets (服务 3 的在途, 为 checkout 兜底), as the tables' own text writes
    /// 第 3 层; a full-width punctuation mark needs none.
    pub fn f(self, key: impl Text, args: &[(&str, &str)]) -> String {
        fill_as(self.t(key), args, self == Lang::Zh)
    }

    /// A number with thousands separators and at most `decimals` decimals (trailing
    /// zeros dropped), as this language writes it.
    pub fn num(self, x: f64, decimals: usize) -> String {
        format_number(x, decimals)
    }

    /// A list of a user's values (unknown link keys, choices), clipped as `error::clip_list`,
    /// with this language's separator (`a, b`; `a、b`).
    pub fn list(self, values: &[String], most: usize) -> String {
        crate::error::clip_list_sep(values, most, self.t(T::ListSep))
    }

    /// What a field accepts, in words.
    pub fn allowed(self, allowed: &Allowed) -> String {
        self.allowed_in(allowed, "")
    }

    /// [`allowed`](Self::allowed) with the range's unit after its maximum (` ms`; none for
    /// lists and words).
    pub fn allowed_in(self, allowed: &Allowed, unit: &str) -> String {
        let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
        let range = |key: T, min: &str, max: &str| {
            self.f(key, &[("min", &grouped(min)), ("max", &grouped(max)), ("unit", &unit)])
        };
        match allowed {
            Allowed::Range { min, max } => range(T::AllowedRange, min, max),
            Allowed::Integer { min, max } => range(T::AllowedInteger, min, max),
            Allowed::OneOf { choices } => {
                self.f(T::AllowedOneOf, &[("choices", &choices.join(self.t(T::ListSep)))])
            }
            Allowed::Length { min_len, max_len } if min_len == max_len => {
                self.f(T::AllowedLengthExact, &[("n", &max_len.to_string())])
            }
            Allowed::Length { min_len, max_len } => {
                self.f(T::AllowedLength, &[("min", &min_len.to_string()), ("max", &max_len.to_string())])
            }
            Allowed::OffOrRange { min, max, integer } => {
                let key = if *integer { T::AllowedOffOrInteger } else { T::AllowedOffOrRange };
                range(key, min, max)
            }
            Allowed::Decimals { min, max, decimals } => self.f(
                T::AllowedDecimals,
                &[
                    ("min", &grouped(min)),
                    ("max", &grouped(max)),
                    ("unit", &unit),
                    ("decimals", &decimals.to_string()),
                ],
            ),
            Allowed::Rule { rule, detail } => self.rule(*rule, detail),
        }
    }

    /// A rule that is not a range, in words; `detail` fills its `{detail}`.
    pub fn rule(self, rule: Rule, detail: &str) -> String {
        let key = match rule {
            Rule::ErrorRatesSum => T::RuleErrorRatesSum,
            Rule::NameLength => T::RuleNameLength,
            Rule::UniqueNames => T::RuleUniqueNames,
            Rule::DecorrelatedNeedsExponential => T::RuleDecorrelatedNeedsExponential,
            Rule::SharedPoolNeeded => T::RuleSharedPoolNeeded,
            Rule::BulkheadOrSharedPool => T::RuleBulkheadOrSharedPool,
            Rule::StackRetryFirst => T::RuleStackRetryFirst,
            Rule::StackRepeated => T::RuleStackRepeated,
            Rule::StackMissing => T::RuleStackMissing,
            Rule::FaultOnLayer => T::RuleFaultOnLayer,
            Rule::FaultOverlap => T::RuleFaultOverlap,
            Rule::KnownKey => T::RuleKnownKey,
            Rule::Required => T::RuleRequired,
            Rule::ValidJson => T::RuleValidJson,
            Rule::Expected => T::RuleExpected,
            Rule::SweepAxisKey => T::RuleSweepAxisKey,
            Rule::OneRate => T::RuleOneRate,
            Rule::JudgedWindows => T::RuleJudgedWindows,
            Rule::PhasesFromList => T::RulePhasesFromList,
            Rule::Number => T::RuleNumber,
            Rule::AxesDiffer => T::RuleAxesDiffer,
            Rule::KeyOnce => T::RuleKeyOnce,
        };
        self.f(key, &[("detail", detail)])
    }

    /// A field error under a control the learner sees by its `label` (in this language,
    /// with the link key or row beside it as the caller likes), its range in `unit`.
    pub fn named_error(self, err: &FieldError, label: &str, unit: &str) -> String {
        let allowed = self.allowed_in(&err.allowed, unit);
        // An emptied field: "= is not accepted" read as a typo in the message.
        let value = if err.value.trim().is_empty() { self.t(T::EmptyValue) } else { &err.value };
        self.f(T::FieldErrorMessage, &[("field", label), ("value", value), ("allowed", &allowed)])
    }

    /// A field error for display next to its control: value and what is allowed.
    pub fn field_error(self, err: &FieldError) -> String {
        self.named_error(err, &err.field, &err.unit)
    }
}

/// The presets' services, by the name scenarios give them (their English text).
const SERVICES: &[T] = &[
    T::SvcPage,
    T::SvcRecommendation,
    T::SvcRecommendations,
    T::SvcProfile,
    T::SvcClient,
    T::SvcGateway,
    T::SvcOrder,
    T::SvcPayment,
    T::SvcApp,
    T::SvcProduct,
    T::SvcOrderCore,
    T::SvcInventory,
    T::SvcShop,
    T::SvcServer,
];

/// The names the layer editor makes up, each a template with one `{n}`, and how many
/// dash-separated numbers its `{n}` is (`service-4`: one; `side-1-2`, layer and index: two).
const NUMBERED_SERVICES: [(T, usize); 2] = [(T::SvcNumbered, 1), (T::SvcSide, 2)];

/// The `{n}` of `name` when it has the form of `template` (`service-{n}`) and `n` is
/// `parts` whole numbers joined by dashes.
fn numbered<'a>(template: &str, parts: usize, name: &'a str) -> Option<&'a str> {
    let (head, tail) = template.split_once("{n}")?;
    let n = name.strip_prefix(head)?.strip_suffix(tail)?;
    let number = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    (n.split('-').count() == parts && n.split('-').all(number)).then_some(n)
}

/// Replaces every `{name}` in `template` with its value from `args`; unknown placeholders
/// are left as they are so a missing argument is visible rather than silent.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    fill_as(template, args, false)
}

/// A Chinese character (CJK unified ideographs, extension A and the compatibility block).
fn han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

/// [`fill`], with `spaced`: a value's Latin or digit edge set off from a Chinese character.
fn fill_as(template: &str, args: &[(&str, &str)], spaced: bool) -> String {
    let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => {
                        if spaced && latin(v.chars().next()) && out.chars().next_back().is_some_and(han) {
                            out.push(' ');
                        }
                        out.push_str(v);
                        if spaced
                            && latin(v.chars().next_back())
                            && after[close + 1..].chars().next().is_some_and(han)
                        {
                            out.push(' ');
                        }
                    }
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `{name}` placeholders a template uses, sorted and deduplicated.
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        names.push(&after[..close]);
        rest = &after[close + 1..];
    }
    crate::order::sort_unique_short(&mut names);
    names
}

/// A bound as a message states it: `1000000000` → `1,000,000,000`, as the rest of the page
/// writes numbers; anything that is not a plain number stays as it is.
fn grouped(bound: &str) -> String {
    // A whole number is grouped as written: through a float, u64::MAX (a seed's bound)
    // would read 18,446,744,073,709,551,616, one more than it is.
    if !bound.is_empty() && bound.bytes().all(|b| b.is_ascii_digit()) {
        let digits = bound.trim_start_matches('0');
        return group_digits(if digits.is_empty() { "0" } else { digits });
    }
    match crate::float::parse_f64(bound) {
        Some(v) if v.is_finite() && !bound.contains(['e', 'E']) => format_number(v, 6),
        _ => bound.to_string(),
    }
}

/// `1234567.891` with 2 decimals → `1,234,567.89`; `4.0` → `4`; `4.1` → `4.1`.
pub fn format_number(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "–".into()
        } else if x > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    let s = format!("{:.*}", decimals, x.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), f.trim_end_matches('0').to_string()),
        None => (s.clone(), String::new()),
    };
    let grouped = group_digits(&int);
    let negative = x < 0.0 && (grouped.chars().any(|c| c != '0' && c != ',') || !frac.is_empty());
    let mut out = String::new();
    if negative {
        out.push('−');
    }
    out.push_str(&grouped);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(&frac);
    }
    out
}

/// [`format_number`] with `decimals`, or below 1 as many as `significant` digits need
/// (at most 9): 0.001157 with 2 decimals and 3 significant digits is 0.00116, not 0.
pub fn format_small(x: f64, decimals: usize, significant: usize) -> String {
    let d = if x != 0.0 && x.abs() < 1.0 {
        let lead = (-x.abs().log10().floor()) as usize; // zeros after the point, plus one
        decimals.max((significant + lead).saturating_sub(1)).min(9)
    } else {
        decimals
    };
    format_number(x, d)
}

/// An upper bound as a person would say it: rounded up to 3 significant digits, with its
/// thousands grouped (`650000000000013.0` → `650,000,000,000,000`, without the float's
/// noise in the last digits, which the rounding up ignores; rounded up, it stays a bound).
pub fn format_bound(x: f64) -> String {
    if !x.is_finite() || x.abs() < 1000.0 {
        return format_number(x.ceil(), 0);
    }
    let unit = 10f64.powi(x.abs().log10().floor() as i32 - 2);
    format_number(((x / unit) - 1e-9).ceil() * unit, 0)
}

/// Digits with a comma every three from the right: `1234567` → `1,234,567`.
fn group_digits(int: &str) -> String {
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    grouped
}

/// A number with exactly `decimals` decimals and thousands separators (`4.10`).
pub fn format_fixed(x: f64, decimals: usize) -> String {
    let trimmed = format_number(x, decimals);
    if decimals == 0 {
        return trimmed;
    }
    let have = trimmed.split_once('.').map_or(0, |(_, f)| f.len());
    let mut out = trimmed;
    if have == 0 {
        out.push('.');
    }
    for _ in have..decimals {
        out.push('0');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(Lang::En.count(1.0, T::UnitCalls), "1 call");
        assert_eq!(Lang::En.count(20.0, T::UnitCalls), "20 calls");
        assert_eq!(Lang::En.count(1000.0, T::UnitCredits), "1,000 credits");
        assert_eq!(Lang::En.count(1.0, T::UnitCredits), "1 credit");
        assert_eq!(Lang::En.count(0.0, T::UnitRequests), "0 requests");
        assert_eq!(Lang::Zh.count(1.0, T::UnitCalls), "1 次调用");
        assert_eq!(Lang::En.count(1.0, T::UnitWorkers), "1 worker");
        // A unit the same for one: as it is.
        assert_eq!(Lang::En.count(1.0, T::UnitMs), "1 ms");
        // The breaker lab's window at one call.
        assert_eq!(
            Lang::En.f(T::BlWindowNow, &[("calls", &Lang::En.count(1.0, T::UnitCalls))]),
            "Window: 1 call"
        );
    }

    #[test]
    fn a_lesson_writes_a_percentage_as_the_page_beside_it() {
        // Capacity 3: ρ = 120 / 175 of the pool; the narration said 68.6 %, the table 68.57 %.
        let rho = 120.0 / 175.0 * 100.0;
        let quoted = crate::lesson::figures::Figure {
            id: "cap-rho".into(),
            value: rho,
            unit: crate::lesson::figures::Unit::Percent,
        };
        assert_eq!(quoted.show(Lang::En), Lang::En.percent_figure(rho));
        assert_eq!(Lang::En.percent_figure(rho), Lang::En.percent("68.57"));
        let fraction = crate::lesson::figures::Figure {
            id: "h-a-core_success_rate".into(),
            value: 0.1039,
            unit: crate::lesson::figures::Unit::Fraction,
        };
        assert_eq!(fraction.show(Lang::Zh), Lang::Zh.percent_figure(10.39));
    }

    #[test]
    fn every_preset_service_has_a_chinese_name_of_its_own() {
        for p in crate::scenario::presets::all() {
            let s = (p.build)();
            let names = s.hop_names();
            let shown: Vec<_> = names.iter().map(|n| Lang::Zh.service(n).into_owned()).collect();
            for (n, z) in names.iter().zip(&shown) {
                assert_ne!(n, z, "{}: {n} has no Chinese name", p.name);
            }
            let mut unique = shown.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(
                unique.len(),
                shown.len(),
                "{}: two services look alike in Chinese: {shown:?}",
                p.name
            );
        }
    }

    #[test]
    fn chinese_sets_a_latin_or_digit_value_off_from_chinese_characters() {
        let zh = |key, name: &str| Lang::Zh.f(key, &[("hop", name), ("to", name)]);
        assert_eq!(zh(T::ChartInFlight, "服务 3"), Lang::Zh.t(T::ChartInFlight).replace("{hop}", "服务 3 "));
        assert_eq!(
            zh(T::ChartInFlight, "支付服务"),
            Lang::Zh.t(T::ChartInFlight).replace("{hop}", "支付服务")
        );
        assert_eq!(zh(T::BadgeFallbackFor, "checkout"), "为 checkout 兜底");
        // Against full-width punctuation, and in English, nothing is added.
        assert_eq!(Lang::Zh.f(T::LabelColon, &[("label", "p99")]), "p99：");
        assert_eq!(Lang::En.f(T::BadgeFallbackFor, &[("to", "checkout")]), "fallback for checkout");
        assert_eq!(fill("为{to}兜底", &[("to", "x")]), "为x兜底", "fill itself writes what it is given");
    }

    #[test]
    fn made_up_service_names_are_numbered_and_others_shown_as_written() {
        assert_eq!(Lang::Zh.service("service-4"), "服务 4");
        assert_eq!(Lang::Zh.service("side-1-2"), "旁路 1-2");
        assert_eq!(Lang::Zh.service("service-"), "service-");
        assert_eq!(Lang::Zh.service("service-x"), "service-x");
        assert_eq!(Lang::Zh.service("side--1"), "side--1");
        for odd in ["service-4-", "service-1-2", "side-1--2", "side-1", "side-1-2-3", "service-+4"] {
            assert_eq!(Lang::Zh.service(odd), odd, "not a name the layer editor makes");
        }
        assert_eq!(Lang::Zh.service("my-db"), "my-db");
        assert_eq!(Lang::Zh.client("page", "recommendation"), "商品页 → 推荐服务");
        assert_eq!(Lang::En.client("page", "recommendation"), "page → recommendation");
    }

    #[test]
    fn bounds_keep_three_significant_digits_rounded_up() {
        assert_eq!(format_bound(650_000_000_000_013.0), "650,000,000,000,000");
        assert_eq!(format_bound(866_666_664_144_444_416.0), "867,000,000,000,000,000");
        assert_eq!(format_bound(20_000_001.0), "20,100,000", "still above the cap it is compared with");
        assert_eq!(format_bound(25_000_000.0), "25,000,000");
        assert_eq!(format_bound(999.2), "1,000");
    }

    #[test]
    fn small_numbers_keep_their_significant_digits() {
        assert_eq!(format_small(100.0 / 86_400.0, 2, 3), "0.00116");
        assert_eq!(format_small(0.0579, 2, 3), "0.0579");
        assert_eq!(format_small(0.174, 2, 3), "0.174");
        assert_eq!(format_small(0.5, 2, 3), "0.5");
        assert_eq!(format_small(1234.567, 2, 3), "1,234.57");
        assert_eq!(format_small(0.0, 2, 3), "0");
        assert_eq!(format_small(0.04, 1, 2), "0.04");
    }

    #[test]
    fn an_emptied_field_is_said_to_be_empty() {
        let e = FieldError::new("b", "  ", Allowed::integer(1, 100));
        assert!(
            Lang::En
                .named_error(&e, "Bucket capacity B", "")
                .starts_with("Bucket capacity B = (empty) is not")
        );
        assert!(Lang::Zh.named_error(&e, "桶容量 B", "").starts_with("桶容量 B = （空） 不可接受"));
    }

    #[test]
    fn a_seed_bound_is_grouped_exactly() {
        let e = FieldError::new("seed", "abc", Allowed::integer(0, u64::MAX));
        assert!(
            Lang::En.field_error(&e).contains("0 to 18,446,744,073,709,551,615"),
            "{}",
            Lang::En.field_error(&e)
        );
        assert_eq!(grouped("007"), "7");
        assert_eq!(grouped("0"), "0");
        assert_eq!(grouped("1.5"), "1.5");
    }

    #[test]
    fn a_named_error_gives_the_label_the_range_grouped_and_its_unit() {
        let e = FieldError::new("hold", -5, Allowed::integer(0, 86_400_000));
        assert_eq!(
            Lang::En.named_error(&e, "Hold time #2", "ms"),
            "Hold time #2 = -5 is not accepted; allowed: a whole number from 0 to 86,400,000 ms."
        );
        assert_eq!(
            Lang::Zh.named_error(&e, "占用时长 #2", "毫秒"),
            "占用时长 #2 = -5 不可接受；允许范围：0 到 86,400,000 毫秒（整数）。"
        );
        let off = FieldError::new(
            "b",
            2.5,
            Allowed::OffOrRange { min: "1".into(), max: "1000000".into(), integer: true },
        );
        assert_eq!(
            Lang::En.field_error(&off),
            "b = 2.5 is not accepted; allowed: 0 (off), or a whole number from 1 to 1,000,000."
        );
        let rate = crate::scenario::ranges::BUCKET_RATE.to(1e6).error("r", 0.0005);
        assert_eq!(
            Lang::En.named_error(&rate, "Refill rate r", "tokens/s"),
            "Refill rate r = 0.0005 is not accepted; allowed: 0 to 1,000,000 tokens/s, at most 3 decimals."
        );
        assert_eq!(
            Lang::Zh.named_error(&rate, "补充速率 r", "令牌/秒"),
            "补充速率 r = 0.0005 不可接受；允许范围：0 到 1,000,000 令牌/秒，最多 3 位小数。"
        );
        let words = FieldError::new("gen", "x", Allowed::OneOf { choices: vec!["burst".into()] });
        assert!(!Lang::En.named_error(&words, "Arrivals", "ms").contains("ms"), "no unit on a list of words");
    }

    #[test]
    fn every_text_exists_in_both_languages_with_the_same_placeholders() {
        // The one text that is only spacing (after a label's colon).
        assert_eq!((T::LabelSep.en(), T::LabelSep.zh()), (" ", ""));
        for &key in T::ALL.iter().filter(|&&k| k != T::LabelSep) {
            assert!(!key.en().trim().is_empty(), "{key:?} has no English text");
            assert!(!key.zh().trim().is_empty(), "{key:?} has no Chinese text");
            assert_eq!(placeholders(key.en()), placeholders(key.zh()), "{key:?} placeholders differ");
        }
        for &key in Cli::ALL {
            assert!(!key.en().trim().is_empty(), "{key:?} has no English text");
            assert!(!key.zh().trim().is_empty(), "{key:?} has no Chinese text");
            assert_eq!(placeholders(key.en()), placeholders(key.zh()), "{key:?} placeholders differ");
        }
    }

    /// Every text is shown somewhere: the tables are one string per language, so a key no
    /// code uses is bytes in every download (six had been left behind).
    #[test]
    fn every_page_text_is_used() {
        fn sources(dir: &std::path::Path, out: &mut String) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("i18n/table.rs") {
                    out.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        let mut code = String::new();
        sources(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut code);
        let named: std::collections::HashSet<&str> = code
            .split("T::")
            .skip(1)
            .map(|rest| &rest[..rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len())])
            .collect();
        let unused: Vec<String> =
            T::ALL.iter().map(|k| format!("{k:?}")).filter(|name| !named.contains(name.as_str())).collect();
        assert!(unused.is_empty(), "texts no code uses: {unused:?}");
    }

    #[test]
    fn browser_language_picks_the_default() {
        assert_eq!(Lang::from_browser(["zh-CN", "en"]), Lang::Zh);
        assert_eq!(Lang::from_browser(["fr-FR", "zh-Hant-TW"]), Lang::Zh);
        assert_eq!(Lang::from_browser(["de"]), Lang::En);
        assert_eq!(Lang::from_browser(["en_US"]), Lang::En);
        assert_eq!(Lang::from_tag("ZH"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag(""), None);
    }

    #[test]
    fn fill_replaces_known_and_keeps_unknown_placeholders() {
        assert_eq!(fill("{a} + {b} = {c}", &[("a", "1"), ("b", "2")]), "1 + 2 = {c}");
        assert_eq!(fill("no braces", &[]), "no braces");
        assert_eq!(fill("open { only", &[]), "open { only");
    }

    #[test]
    fn numbers_group_thousands_and_trim_zeros() {
        assert_eq!(format_number(4500.0, 2), "4,500");
        assert_eq!(format_number(8_640_000.0, 0), "8,640,000");
        assert_eq!(format_number(4.096, 2), "4.1");
        assert_eq!(format_fixed(4.096, 2), "4.10");
        assert_eq!(format_number(-0.0001, 2), "0");
        assert_eq!(format_number(-1234.5, 1), "−1,234.5");
        assert_eq!(format_number(f64::INFINITY, 1), "∞");
    }
}
