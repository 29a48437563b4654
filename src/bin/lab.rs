//! `lab`: the native command line over the chain model.
//!
//! ```text
//! lab presets
//! lab run --preset NAME [--seed N] [--format json|table|csv|digest]
//! lab run --scenario FILE.json [--seed N] [--format json|table|csv|digest] [--engine auto|general]
//! lab run --link '?page=storm&preset=chain-3x3&layers=5' [--versus] ...   (a storm page link)
//! lab show --preset NAME          (prints the preset as a scenario file)
//! lab keys                        (the storm page's link keys)
//! lab sweep [--preset NAME] [--x KNOB=A..B/N] [--y KNOB=A..B/N] [--protect none|budget|cancel|breaker]
//!           [--seed N] [--format table|csv]   (the stability map, cell for cell the page's)
//! ```
//!
//! Any bad input — an unknown flag or preset, an unreadable or oversized file, JSON of the
//! wrong shape, a value out of range, a flag given twice — prints a message naming the
//! field, the value and what is allowed on stderr and exits 2. Its help, messages and
//! tables speak English or Chinese (`--lang`, else `LAB_LANG`, else `LANG`), from the same
//! tables as the page; its JSON, CSV and digests are the page's exports, the same in both. A run its budget stopped (the system diverged)
//! prints its partial report and a notice on stderr, and exits 0. Arguments are parsed by
//! hand: five subcommands and a few flags do not earn a parser crate.

use resilience_lab::error::{Allowed, FieldError};
use resilience_lab::i18n::{Cli, Lang};
use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, Engine, SimError, run_on};
use resilience_lab::model::slo::Slo;
use resilience_lab::query::Query;
use resilience_lab::report::{Report, Stopped};
use resilience_lab::scenario::{Scenario, presets};
use resilience_lab::state::runs::{Job, Side};
use resilience_lab::state::storm::StormState;
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::process::ExitCode;

/// The help, in the language asked for.
fn usage(lang: Lang) -> &'static str {
    lang.t(Cli::Usage)
}

/// A field's message in the language asked for: in English the command line's own form
/// (`field: got VALUE, allowed …`, which scripts and the fuzz test read), in Chinese the
/// page's words.
fn say(lang: Lang, e: &FieldError) -> String {
    match lang {
        Lang::En => e.to_string(),
        Lang::Zh => lang.field_error(&file_words(lang, e)),
    }
}

/// A scenario file's message with the file's own words (`scenario::file`: a key given
/// twice, a list where an object was wanted) in the language asked for.
fn file_words(lang: Lang, e: &FieldError) -> FieldError {
    use resilience_lab::scenario::file as f;
    let words = [
        (f::GOT_TWICE, Cli::FileTwice),
        (f::GOT_NOTHING, Cli::FileNothing),
        (f::A_LIST, Cli::FileAList),
        (f::A_NUMBER, Cli::FileANumber),
        // The longer first: both start "an object".
        (f::A_TAGGED_OBJECT, Cli::FileATaggedObject),
        (f::AN_OBJECT, Cli::FileAnObject),
    ];
    // A whole value, or the words a detail starts with (`an object (Server)`).
    let said = |text: &str| -> Option<String> {
        words.iter().find_map(|(en, key)| {
            let rest = text.strip_prefix(en)?;
            let rest = match (lang, rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')'))) {
                (Lang::Zh, Some(name)) => format!("（{name}）"),
                _ => rest.to_string(),
            };
            (rest.is_empty() || rest.starts_with([' ', '（'])).then(|| format!("{}{rest}", lang.t(*key)))
        })
    };
    let mut e = e.clone();
    if let Some(v) = said(&e.value) {
        e.value = v;
    }
    if let Allowed::Rule { rule: resilience_lab::error::Rule::Expected, detail } = e.allowed.as_mut()
        && let Some(d) = said(detail)
    {
        *detail = d;
    }
    e
}

/// A flag's value refused: the field's message, in the language asked for.
fn refused(lang: Lang, flag: &str, value: &str, allowed: Allowed) -> UsageError {
    UsageError(say(lang, &FieldError::new(flag, format!("{value:?}"), allowed)))
}

/// One of the listed words.
fn one_of(words: &[&str]) -> Allowed {
    Allowed::OneOf { choices: words.iter().map(|w| (*w).to_string()).collect() }
}

/// The language of the help, messages and tables: `--lang` (taken out of `args`), else
/// `LAB_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`: `zh_CN.UTF-8` is Chinese),
/// else English.
fn take_lang(args: &mut Vec<String>) -> Result<Lang, UsageError> {
    let mut given = None;
    let mut i = 0;
    while i < args.len() {
        let value = if args[i] == "--lang" {
            let v = args.get(i + 1).cloned();
            args.drain(i..(i + 2).min(args.len()));
            Some(v.unwrap_or_default())
        } else if let Some(v) = args[i].strip_prefix("--lang=") {
            let v = v.to_string();
            args.remove(i);
            Some(v)
        } else {
            i += 1;
            None
        };
        if let Some(v) = value {
            if given.is_some() {
                return Err(UsageError(Lang::En.f(Cli::Repeated, &[("flag", "--lang")])));
            }
            given = Some(
                Lang::from_tag(&v).ok_or_else(|| refused(Lang::En, "--lang", &v, one_of(&["en", "zh"])))?,
            );
        }
    }
    let env = ["LAB_LANG", "LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .next()
        .and_then(|v| Lang::from_tag(v.split('.').next().unwrap_or("")));
    Ok(given.or(env).unwrap_or(Lang::En))
}

/// Refuses a flag given twice (the last would silently win).
fn once(seen: &mut Vec<String>, lang: Lang, flag: &str) -> Result<(), UsageError> {
    if seen.iter().any(|f| f == flag) {
        return Err(UsageError(lang.f(Cli::Repeated, &[("flag", flag)])));
    }
    seen.push(flag.to_string());
    Ok(())
}

/// Scenario files larger than this are refused before they are read whole.
const MAX_FILE_BYTES: u64 = 8 << 20;

/// A problem with what the user asked for: exit code 2.
struct UsageError(String);

enum Format {
    Json,
    Table,
    Csv,
    /// The FNV-1a digest of the report's wire encoding, as the page shows it in `data-digest`.
    Digest,
}

struct RunArgs {
    preset: Option<String>,
    file: Option<String>,
    /// A storm page link (`?page=storm&preset=…&l1.attempts=4`).
    link: Option<String>,
    seed: Option<u64>,
    format: Format,
    versus: bool,
    engine: Engine,
    max_calls: f64,
}

fn parse_run(args: &[String], lang: Lang) -> Result<RunArgs, UsageError> {
    let mut out = RunArgs {
        preset: None,
        file: None,
        link: None,
        seed: None,
        format: Format::Json,
        versus: false,
        engine: Engine::Auto,
        max_calls: DEFAULT_MAX_CALLS,
    };
    let mut it = args.iter();
    let mut seen = Vec::new();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        if flag.starts_with("--") {
            once(&mut seen, lang, flag)?;
        }
        let mut value = |name: &str| -> Result<String, UsageError> {
            inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| {
                UsageError(format!("{}\n{}", lang.f(Cli::NeedsValue, &[("flag", name)]), usage(lang)))
            })
        };
        match flag {
            "--preset" => out.preset = Some(value("--preset")?),
            "--versus" if inline.is_none() => out.versus = true,
            "--scenario" => out.file = Some(value("--scenario")?),
            "--link" => out.link = Some(value("--link")?),
            "--seed" => {
                let v = value("--seed")?;
                out.seed =
                    Some(v.parse().map_err(|_| refused(lang, "--seed", &v, Allowed::integer(0, u64::MAX)))?);
            }
            "--max-calls" => {
                let v = value("--max-calls")?;
                // A whole number within the default, the bound the engine's memory is stated for.
                out.max_calls = v
                    .parse::<u64>()
                    .ok()
                    .map(|x| x as f64)
                    .filter(|x| (1.0..=DEFAULT_MAX_CALLS).contains(x))
                    .ok_or_else(|| {
                        refused(lang, "--max-calls", &v, Allowed::integer(1, DEFAULT_MAX_CALLS as u64))
                    })?;
            }
            "--engine" => {
                let v = value("--engine")?;
                out.engine = match v.as_str() {
                    "auto" => Engine::Auto,
                    "general" => Engine::General,
                    _ => return Err(refused(lang, "--engine", &v, one_of(&["auto", "general"]))),
                };
            }
            "--format" => {
                let v = value("--format")?;
                out.format = match v.as_str() {
                    "json" => Format::Json,
                    "table" => Format::Table,
                    "csv" => Format::Csv,
                    "digest" => Format::Digest,
                    _ => {
                        return Err(refused(
                            lang,
                            "--format",
                            &v,
                            one_of(&["json", "table", "csv", "digest"]),
                        ));
                    }
                };
            }
            _ => {
                let m = lang.f(Cli::UnknownArgument, &[("arg", &format!("{a:?}"))]);
                return Err(UsageError(format!("{m}\n{}", usage(lang))));
            }
        }
    }
    if [out.preset.is_some(), out.file.is_some(), out.link.is_some()].iter().filter(|x| **x).count() != 1 {
        return Err(UsageError(format!("{}\n{}", lang.t(Cli::OneSource), usage(lang))));
    }
    if out.versus && out.file.is_some() {
        return Err(UsageError(format!("{}\n{}", lang.t(Cli::VersusNeeds), usage(lang))));
    }
    Ok(out)
}

/// The presets' names, as what a `--preset` allows.
fn preset_names() -> Allowed {
    Allowed::OneOf { choices: presets::all().iter().map(|p| p.name.to_string()).collect() }
}

/// The scenario and seed a storm page link runs: the page's own reading of it (the same
/// `Job` its worker runs), refused with the field's message where the page would show one.
fn link_scenario(
    link: &str,
    versus: bool,
    lang: Lang,
) -> Result<(Scenario, u64, Option<resilience_lab::export::ReportLink>), UsageError> {
    let q = Query::from_link(link);
    if let Some(page) = q.get("page").filter(|p| *p != "storm") {
        return Err(UsageError(lang.f(Cli::LinkPage, &[("page", &resilience_lab::error::clip(page))])));
    }
    let st = StormState::from_query(&q);
    if let Some((_, _, e)) = st.errors.iter().next() {
        // The range in the unit of the page's control for the key (as the page says it).
        let unit =
            resilience_lab::state::storm::number_for_url_key(&e.field).map_or("", |d| d.knob.range.unit);
        return Err(UsageError(format!("--link: {}", lang.named_error(e, &e.field, unit))));
    }
    if !st.unknown.is_empty() {
        return Err(UsageError(lang.f(Cli::LinkUnknown, &[("keys", &lang.list(&st.unknown, 8))])));
    }
    if versus && !st.compare {
        return Err(UsageError(lang.t(Cli::LinkNoSideB).to_string()));
    }
    let side = if versus { Side::B } else { Side::A };
    // With the objective the run is judged by: the JSON's `slo` is the page's verdict.
    let query = st.export_query();
    let (scenario, seed) = Job::Storm { query: query.clone(), side }
        .scenario()
        .map_err(|e| UsageError(format!("--link: {}", lang.field_error(&e))))?;
    Ok((scenario, seed, resilience_lab::state::runs::report_link(&query, side)))
}

fn load_scenario(args: &RunArgs, lang: Lang) -> Result<Scenario, UsageError> {
    if let Some(name) = &args.preset {
        let p = presets::find(name).ok_or_else(|| refused(lang, "--preset", name, preset_names()))?;
        return match (args.versus, p.versus) {
            (false, _) => Ok((p.build)()),
            (true, Some(v)) => Ok((v.build)()),
            (true, None) => Err(UsageError(lang.f(Cli::NoVersus, &[("name", &format!("{name:?}"))]))),
        };
    }
    let file = args.file.as_deref().unwrap_or_default();
    // Messages name a file in quotes and the standard input in words, not as `-` (a file
    // named `-` is `./-`).
    let stdin = file == "-";
    let plain = if stdin { lang.t(Cli::StandardInput) } else { file };
    let path = if stdin { plain.to_string() } else { format!("{file:?}") };
    let cannot = |e: std::io::Error| {
        UsageError(lang.f(Cli::CannotRead, &[("path", &path), ("error", &e.to_string())]))
    };
    let mut bytes = Vec::new();
    // `-` is the standard input, so that a generated scenario can be piped in.
    // Waiting for a scenario typed at a terminal would look like a hang.
    if stdin && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        return Err(UsageError(lang.t(Cli::StdinIsTerminal).to_string()));
    }
    let source: Box<dyn Read> = if stdin {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(file).map_err(cannot)?)
    };
    source.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        let mib = (MAX_FILE_BYTES >> 20).to_string();
        return Err(UsageError(lang.f(Cli::TooLarge, &[("path", &path), ("mib", &mib)])));
    }
    // A byte-order mark (an editor's UTF-8 "with BOM") is not part of the JSON.
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let byte = e.utf8_error().valid_up_to().to_string();
        UsageError(lang.f(Cli::NotUtf8, &[("path", &path), ("byte", &byte)]))
    })?;
    Scenario::from_json(&text).map_err(|e| {
        // A run's report handed in as a scenario (the first thing a learner tries): say so.
        let report = serde_json::from_str::<serde_json::Value>(&text)
            .is_ok_and(|v| v.get("generator").is_some() && v.get("summary").is_some());
        if report {
            UsageError(lang.f(Cli::ReportNotScenario, &[("path", plain)]))
        } else {
            UsageError(format!("{plain}: {}", say(lang, &e)))
        }
    })
}

fn run(args: &[String], lang: Lang) -> Result<String, (u8, String)> {
    let args = parse_run(args, lang).map_err(|e| (2, e.0))?;
    let (scenario, seed, link) = match &args.link {
        Some(link) => link_scenario(link, args.versus, lang).map_err(|e| (2, e.0))?,
        None => {
            let s = load_scenario(&args, lang).map_err(|e| (2, e.0))?;
            let seed = s.seed;
            (s, seed, None)
        }
    };
    let seed = args.seed.unwrap_or(seed);
    // A --seed given beside a link is the run's: the report's link says it.
    let link = link.map(|mut l| {
        if args.seed.is_some() {
            let mut q = Query::parse(&l.query);
            q.set("seed", seed.to_string());
            l.query = q.to_query_string().trim_start_matches('?').to_string();
        }
        l
    });
    let report = run_on(&scenario, seed, args.max_calls, args.engine).map_err(|e| match e {
        SimError::Invalid(e) => (2, say(lang, &e)),
        SimError::TooMuchWork { estimated, cap } => (
            2,
            lang.f(
                Cli::TooMuchWork,
                &[("estimated", &format!("{estimated:.0}")), ("cap", &format!("{cap:.0}"))],
            ),
        ),
        SimError::Internal(m) => (1, lang.f(Cli::Internal, &[("message", &m)])),
    })?;
    if let Some(stop) = report.summary.stopped {
        eprintln!("lab: {}: {}", lang.t(Cli::Notice), stopped_notice(stop, lang));
    }
    Ok(match args.format {
        // The page's "export JSON" and "export CSV" print through the same functions.
        Format::Json => resilience_lab::export::report_json(&report, link.as_ref(), scenario.slo),
        Format::Table => table(&report, scenario.slo, args.versus, lang),
        Format::Csv => resilience_lab::export::series_csv(&report),
        Format::Digest => format!("{:016x}\n", resilience_lab::state::runs::report_digest(&report)),
    })
}

/// A text map's x axis for columns labelled `xs` (one character a column): a row of ticks
/// and a row of values, each value starting under its tick. Labelled: every k-th column, k
/// the smallest of 1, 2, 5, 10, … that leaves a space between neighbours, and the last
/// column (taking the place of the one before if both do not fit). A map too narrow for
/// two values under their ticks gives its first and last as `first … last`.
fn x_axis(xs: &[String]) -> (String, String) {
    let n = xs.len();
    let widest = xs.iter().map(|x| columns(x)).max().unwrap_or(1);
    let step = [1, 2, 5, 10, 20, 25, 50, 100, 250].into_iter().find(|&k| k > widest).unwrap_or(n.max(1));
    let mut at: Vec<usize> = (0..n).step_by(step).collect();
    // Whether the value at column `p` ends a space before column `q`.
    let fits = |p: usize, q: usize| p + columns(&xs[p]) < q;
    let mut squeezed = false;
    if let Some(last) = n.checked_sub(1)
        && at.last() != Some(&last)
    {
        match at.last() {
            Some(&p) if fits(p, last) => at.push(last),
            Some(_) if at.len() > 1 => {
                at.pop();
                at.push(last);
            }
            _ => {
                squeezed = true;
                at.push(last);
            }
        }
    }
    let mut ticks = String::new();
    for &i in &at {
        ticks.push_str(&" ".repeat(i - columns(&ticks)));
        ticks.push('|');
    }
    let values = if squeezed {
        format!("{} … {}", xs[0], xs[n - 1])
    } else {
        let mut values = String::new();
        for &i in &at {
            values.push_str(&" ".repeat(i - columns(&values)));
            values.push_str(&xs[i]);
        }
        values
    };
    (ticks, values)
}

/// What a stopped run says on stderr.
fn stopped_notice(stop: Stopped, lang: Lang) -> String {
    match stop {
        Stopped::CallsAlive { at_ms, limit } => {
            lang.f(Cli::StoppedCalls, &[("at", &at_ms.to_string()), ("limit", &limit.to_string())])
        }
        Stopped::Work { at_ms, limit } => {
            lang.f(Cli::StoppedWork, &[("at", &at_ms.to_string()), ("limit", &limit.to_string())])
        }
    }
}

/// Columns a text takes in a terminal: a CJK character two, anything else one.
fn columns(text: &str) -> usize {
    text.chars().map(|c| if u32::from(c) >= 0x2E80 { 2 } else { 1 }).sum()
}

/// `text` padded with spaces to `width` columns, on the right (`left`: text left-aligned)
/// or on the left.
fn pad(text: &str, width: usize, left: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(columns(text)));
    if left { format!("{text}{fill}") } else { format!("{fill}{text}") }
}

fn table(r: &Report, slo: Slo, versus: bool, lang: Lang) -> String {
    let s = &r.summary;
    let budget = slo.budget(s);
    let mut out = String::new();
    let side = if versus { lang.t(Cli::SideB) } else { "" };
    let _ = writeln!(
        out,
        "{}",
        lang.f(Cli::ScenarioLine, &[("name", &r.scenario), ("seed", &r.seed.to_string()), ("side", side)])
    );
    let rows: Vec<(&str, String)> = vec![
        ("original_requests", s.original_requests.to_string()),
        ("downstream_attempts", s.downstream_attempts.to_string()),
        ("attempts_per_hop", format!("{:?}", s.attempts_per_hop)),
        ("amplification", format!("{:.2}×  ({})", s.amplification, lang.t(Cli::AmplificationNote))),
        ("succeeded", s.succeeded.to_string()),
        ("degraded", s.degraded.to_string()),
        // A run stopped early counts the requests still in flight as failed: said here, as
        // the JSON's `unfinished` says it.
        (
            "failed",
            match s.unfinished {
                0 => s.failed.to_string(),
                n => format!("{} ({})", s.failed, lang.f(Cli::UnfinishedNote, &[("n", &n.to_string())])),
            },
        ),
        ("admission_rejected", s.admission_rejected.to_string()),
        ("retry_budget_denied", s.retry_budget_denied.to_string()),
        ("budget_exhausted", s.budget_exhausted.to_string()),
        ("breaker_rejected", s.breaker_rejected.to_string()),
        ("bulkhead_rejected", s.bulkhead_rejected.to_string()),
        ("retries", s.retries.to_string()),
        ("timeouts", s.timeouts.to_string()),
        ("core_success_rate", format!("{:.2} %", s.core_success_rate * 100.0)),
        ("degraded_rate", format!("{:.2} %", s.degraded_rate * 100.0)),
        (
            "slo",
            lang.f(
                Cli::SloLine,
                &[
                    ("pct", &slo.success_percent.to_string()),
                    ("verdict", lang.t(if budget.met { Cli::SloMet } else { Cli::SloBreached })),
                    ("spent", &budget.spent.to_string()),
                    ("allowed", &resilience_lab::plot::storm::allowance(budget.allowed)),
                    ("frac", &resilience_lab::plot::storm::Unit::Percent.write(lang, budget.spent_fraction)),
                ],
            ),
        ),
        (
            "latency_ms p50/p99/max",
            format!("{} / {} / {}", s.latency_ms.p50, s.latency_ms.p99, s.latency_ms.max),
        ),
        ("end_ms", format!("{:.1}  ({})", s.end_ms, lang.t(Cli::EndNote))),
    ];
    for (k, v) in rows {
        let _ = writeln!(out, "{k:<24}{v}");
    }
    // The hops' table, its columns as wide as their widest cell (a 40-character name, a
    // Chinese name two columns a character).
    let head: Vec<&str> = lang.t(Cli::HopColumns).split('|').collect();
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|h| (*h).to_string()).collect()];
    for h in &r.hops {
        // Busy against the worker limit, so that a full pool shows as one (∞: no limit).
        let busy =
            format!("{}/{}", h.peak_in_flight, h.workers.map_or_else(|| "∞".to_string(), |w| w.to_string()));
        let name = lang.service(&h.name).into_owned();
        let cells = [h.calls.to_string(), h.rejected.to_string(), h.abandoned_work.to_string(), busy];
        rows.push(std::iter::once(name).chain(cells).chain([h.peak_queue.to_string()]).collect());
    }
    let widths: Vec<usize> =
        (0..head.len()).map(|k| rows.iter().map(|row| columns(&row[k])).max().unwrap_or(0)).collect();
    out.push('\n');
    for row in &rows {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(
                |(k, cell)| if k == 0 { pad(cell, widths[k], true) } else { pad(cell, widths[k] + 2, false) },
            )
            .collect();
        let _ = writeln!(out, "{}", line.concat());
    }
    let _ = writeln!(out, "\n{}", lang.t(Cli::HopNote));
    out
}

/// The retry-storm page's link keys, from the page's own control tables.
fn keys(lang: Lang) -> String {
    let mut out = format!("{}\n\n", lang.t(Cli::KeysIntro));
    let docs = resilience_lab::state::storm::key_docs(lang);
    // The widest key sets the column, so that every line's range starts in it.
    let width = docs.iter().map(|d| columns(&d.key)).max().unwrap_or(0);
    for d in docs {
        let unit = match (d.unit.is_empty(), lang) {
            (true, _) => String::new(),
            (false, Lang::Zh) => format!("（{}）", d.unit),
            (false, Lang::En) => format!(" ({})", d.unit),
        };
        let _ = writeln!(out, "{}  {}{}  — {}", pad(&d.key, width, true), d.accepts, unit, d.label);
    }
    out
}

/// `lab sweep`: every cell of the stability map, run and judged as the page's workers do.
fn sweep(args: &[String], lang: Lang) -> Result<String, (u8, String)> {
    use resilience_lab::state::stability::{self as st, Axis, Protection, Sweep};
    let usage = |m: String| (2u8, format!("{m}\n{}", usage(lang)));
    let field = |e: FieldError| (2u8, say(lang, &e));
    let mut preset = st::DEFAULT_PRESET.to_string();
    let (mut x, mut y, mut protect, mut seed, mut csv) = (None, None, None, None, false);
    let mut it = args.iter();
    let mut seen = Vec::new();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        if flag.starts_with("--") {
            once(&mut seen, lang, flag).map_err(|e| (2, e.0))?;
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| usage(lang.f(Cli::NeedsValue, &[("flag", flag)])))
        };
        match flag {
            "--preset" => preset = value()?,
            "--x" => x = Some(Axis::parse("--x", &value()?).map_err(field)?),
            "--y" => y = Some(Axis::parse("--y", &value()?).map_err(field)?),
            "--protect" => {
                let v = value()?;
                protect = Some(Protection::parse(&v).ok_or_else(|| {
                    (2, refused(lang, "--protect", &v, one_of(&["none", "budget", "cancel", "breaker"])).0)
                })?);
            }
            "--seed" => {
                let v = value()?;
                seed = Some(
                    v.parse::<u64>()
                        .map_err(|_| (2, refused(lang, "--seed", &v, Allowed::integer(0, u64::MAX)).0))?,
                );
            }
            "--format" => {
                csv = match value()?.as_str() {
                    "csv" => true,
                    "table" => false,
                    v => return Err((2, refused(lang, "--format", v, one_of(&["table", "csv"])).0)),
                }
            }
            _ => return Err(usage(lang.f(Cli::UnknownArgument, &[("arg", &format!("{a:?}"))]))),
        }
    }
    let p =
        presets::find(&preset).ok_or_else(|| (2, refused(lang, "--preset", &preset, preset_names()).0))?;
    let mut s = Sweep::default_for(p.name);
    let (x_given, y_given) = (x.is_some(), y.is_some());
    s.x = x.unwrap_or(s.x);
    s.y = y.unwrap_or(s.y);
    s.seed = seed.unwrap_or(s.seed);
    s.protect = protect.unwrap_or(Protection::None);
    // The same knob on both axes is named by the flag given (the other is the default's).
    let given = if y_given { "--y" } else { "--x" };
    s.axes_differ(given).and_then(|()| s.check()).map_err(|e| {
        // A preset whose default map cannot run (no limited pool to load): the axes the
        // learner never typed are not theirs to fix.
        let (code, m) = field(e);
        if x_given || y_given {
            (code, m)
        } else {
            (code, format!("{m}\n{}", lang.f(Cli::SweepGiveAxes, &[("preset", p.name)])))
        }
    })?;
    let protected = s.protect != Protection::None;
    let cells: Vec<_> = (0..s.cells()).map(|i| Some(s.run_cell(i, protected))).collect();
    if csv {
        return Ok(st::csv(&s, &cells, protected));
    }
    // The map as text, the highest y on top: a recovered cell by its band, as the page
    // shades it ('.' ':' '+' within each of `RECOVERY_BANDS_MS`, 'o' later), '~' still
    // draining its backlog, '#' stuck,
    // 'x' overloaded (at or above capacity, or failing before the trigger), '?' could not run.
    use resilience_lab::plot::stability::{RECOVERY_BANDS_MS, recovery_band};
    const BAND_MARKS: [char; RECOVERY_BANDS_MS.len() + 1] = ['.', ':', '+', 'o'];
    let mut out =
        format!("{}  x = {}  y = {}  protect = {}\n", s.preset, s.x.text(), s.y.text(), s.protect.slug());
    out.push_str(lang.t(Cli::SweepLegend));
    for (mark, ms) in BAND_MARKS.iter().zip(RECOVERY_BANDS_MS) {
        let secs = resilience_lab::i18n::format_number(ms / 1000.0, 1);
        let _ = write!(out, "{}   ", lang.f(Cli::SweepWithin, &[("mark", &mark.to_string()), ("s", &secs)]));
    }
    let _ = writeln!(out, "{}", lang.t(Cli::SweepMarks));
    // Labels as wide as the widest, so that the rows' cells line up.
    let labels: Vec<String> =
        (0..s.y.n).map(|j| resilience_lab::i18n::format_number(s.y.value(j), 3)).collect();
    let lw = labels.iter().map(|l| columns(l)).max().unwrap_or(0).max(10);
    let _ = writeln!(out, "{} ↑ {}{}", pad("", lw, false), s.y.key, axis_unit(&s.y.key, lang));
    for j in (0..s.y.n).rev() {
        let _ = write!(out, "{} ", pad(&labels[usize::from(j)], lw, false));
        for i in 0..s.x.n {
            let c = &cells[usize::from(j) * usize::from(s.x.n) + usize::from(i)];
            out.push(match c {
                Some(Ok(v)) => match v.outcome {
                    resilience_lab::model::stability::Outcome::Recovered => {
                        BAND_MARKS[recovery_band(v.recovered_after_ms)]
                    }
                    resilience_lab::model::stability::Outcome::Draining => '~',
                    resilience_lab::model::stability::Outcome::Stuck => '#',
                    resilience_lab::model::stability::Outcome::Overloaded => 'x',
                },
                _ => '?',
            });
        }
        out.push('\n');
    }
    // The x axis: a tick under each labelled column, its value below it, as many as fit
    // one space apart (every column of a narrow sweep; the first and the last always).
    let xs: Vec<String> = (0..s.x.n).map(|i| resilience_lab::i18n::format_number(s.x.value(i), 3)).collect();
    let (ticks, values) = x_axis(&xs);
    let margin = pad("", lw, false);
    let _ = writeln!(out, "{margin} {ticks}\n{margin} {values}");
    let _ = writeln!(out, "{margin} → {}{}", s.x.key, axis_unit(&s.x.key, lang));
    // Why the '?' cells could not run, each reason once, in words.
    let mut why: Vec<(String, usize)> = Vec::new();
    for e in cells.iter().flatten().filter_map(|c| c.as_ref().err()) {
        let text = resilience_lab::state::stability::why_not_run(lang, e);
        match why.iter_mut().find(|(w, _)| *w == text) {
            Some((_, n)) => *n += 1,
            None => why.push((text, 1)),
        }
    }
    for (text, n) in why {
        let _ = writeln!(out, "{}", lang.f(Cli::SweepCouldNot, &[("n", &n.to_string()), ("why", &text)]));
    }
    Ok(out)
}

/// A sweep axis' unit as the text map writes it after the key (` (ms)`), from the storm
/// page's own control for the key; nothing for a count.
fn axis_unit(key: &str, lang: Lang) -> String {
    let unit = match key {
        "utilisation" => lang.t(Cli::ShareOfCapacity),
        "trigger_ms" => "ms",
        k => resilience_lab::state::storm::number_for_url_key(k).map_or("", |d| d.knob.range.unit),
    };
    if unit.is_empty() { String::new() } else { format!(" ({unit})") }
}

/// `lab show (--preset NAME | --link LINK) [--versus]`: the preset, or what a storm page
/// link runs, as a scenario file. Other flags are refused rather than ignored (a seed or
/// format given here would change nothing).
fn show(args: &[String], lang: Lang) -> Result<String, (u8, String)> {
    let a = parse_run(args, lang).map_err(|e| {
        let m = if e.0.starts_with(lang.t(Cli::OneSource)) {
            format!("{}\n{}", lang.t(Cli::ShowNeeds), usage(lang))
        } else {
            e.0
        };
        (2, m)
    })?;
    let only = a.file.is_none()
        && a.seed.is_none()
        && matches!(a.format, Format::Json)
        && matches!(a.engine, Engine::Auto)
        && a.max_calls == DEFAULT_MAX_CALLS;
    if !only {
        return Err((2, format!("{}\n{}", lang.t(Cli::ShowOnly), usage(lang))));
    }
    // A page link's scenario as the page runs it, its seed the link's.
    let s = match &a.link {
        Some(l) => link_scenario(l, a.versus, lang).map(|(s, seed, _)| Scenario { seed, ..s }),
        None => load_scenario(&a, lang),
    };
    s.map(|s| serde_json::to_string_pretty(&s).unwrap_or_default()).map_err(|e| (2, e.0))
}

/// `lab link --scenario FILE [--preset NAME]`: the retry-storm page link that runs a
/// scenario file, from the preset (any, or the one named) it loses the fewest fields from;
/// the fields the page has no control for are named on the standard error.
fn link(args: &[String], lang: Lang) -> Result<String, (u8, String)> {
    let needs = || (2, format!("{}\n{}", lang.t(Cli::LinkNeeds), usage(lang)));
    let (mut rest, mut preset) = (Vec::new(), None);
    let mut it = args.iter();
    while let Some(x) = it.next() {
        match x.strip_prefix("--preset") {
            Some("") => preset = Some(it.next().cloned().ok_or_else(needs)?),
            Some(v) if v.starts_with('=') => preset = Some(v[1..].to_string()),
            _ => rest.push(x.clone()),
        }
    }
    // A flag's own error is kept; a missing or second source is this command's.
    let a = parse_run(&rest, lang)
        .map_err(|e| if e.0.starts_with(lang.t(Cli::OneSource)) { needs() } else { (2, e.0) })?;
    let only = a.file.is_some()
        && a.seed.is_none()
        && !a.versus
        && matches!(a.format, Format::Json)
        && matches!(a.engine, Engine::Auto)
        && a.max_calls == DEFAULT_MAX_CALLS;
    if !only {
        return Err(needs());
    }
    if let Some(p) = preset.as_deref().filter(|p| presets::find(p).is_none()) {
        return Err((2, refused(lang, "--preset", p, preset_names()).0));
    }
    let s = load_scenario(&a, lang).map_err(|e| (2, e.0))?;
    let l = resilience_lab::state::storm::from_file::link_for(&s, preset.as_deref());
    if !l.lost.is_empty() {
        let path = a.file.as_deref().unwrap_or_default();
        let mut note =
            lang.f(Cli::LinkLost, &[("n", &l.lost.len().to_string()), ("path", path), ("preset", l.preset)]);
        for x in &l.lost {
            let clip = resilience_lab::error::clip;
            let _ = write!(note, "\n  {}: {} → {}", x.path, clip(&x.file), clip(&x.page));
        }
        eprintln!("lab: {note}");
    }
    // Opened in the language the command speaks.
    Ok(match lang {
        Lang::Zh => format!("{}&lang=zh", l.query),
        Lang::En => l.query,
    })
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let lang = match take_lang(&mut args) {
        Ok(lang) => lang,
        Err(e) => {
            eprintln!("lab: {}", e.0);
            return ExitCode::from(2);
        }
    };
    // `lab run --help` and the like: the usage, which covers every subcommand.
    let help = args.iter().any(|a| matches!(a.as_str(), "-h" | "--help"));
    let result = match args.first().map(String::as_str) {
        _ if help => Ok(format!("{}\n", usage(lang))),
        Some("--version" | "-V") if args.len() == 1 => Ok(format!("lab {}\n", env!("CARGO_PKG_VERSION"))),
        Some("presets") if args.len() == 1 => {
            let width = presets::all().iter().map(|p| columns(p.name)).max().unwrap_or(0);
            Ok(presets::all()
                .iter()
                .map(|p| format!("{}  {}\n", pad(p.name, width, true), p.story(lang)))
                .collect())
        }
        Some("run") => run(&args[1..], lang),
        Some("sweep") => sweep(&args[1..], lang),
        Some("keys") if args.len() == 1 => Ok(keys(lang)),
        Some("show") => show(&args[1..], lang),
        Some("link") => link(&args[1..], lang),
        Some("help") => Ok(format!("{}\n", usage(lang))),
        Some(c @ ("presets" | "keys")) => {
            Err((2, format!("{}\n{}", lang.f(Cli::TakesNoArgs, &[("cmd", c)]), usage(lang))))
        }
        Some(other) => Err((
            2,
            format!("{}\n{}", lang.f(Cli::UnknownCommand, &[("cmd", &format!("{other:?}"))]), usage(lang)),
        )),
        None => Err((2, usage(lang).to_string())),
    };
    match result {
        Ok(text) => {
            // Written, not `print!`ed: a reader that stops early (`lab run | head`) closes
            // the pipe, and that is the reader's choice, not a panic.
            let newline = if text.ends_with('\n') { "" } else { "\n" };
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.write_all(newline.as_bytes())) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("lab: {}", lang.f(Cli::CannotWrite, &[("error", &e.to_string())]));
                    ExitCode::from(1)
                }
            }
        }
        Err((code, msg)) => {
            eprintln!("lab: {msg}");
            ExitCode::from(code)
        }
    }
}
