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
//! wrong shape, a value out of range — prints a message naming the field, the value and
//! what is allowed on stderr and exits 2. A run its budget stopped (the system diverged)
//! prints its partial report and a notice on stderr, and exits 0. Arguments are parsed by
//! hand: five subcommands and a few flags do not earn a parser crate.

use resilience_lab::i18n::Lang;
use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, Engine, SimError, run_on};
use resilience_lab::model::slo::Slo;
use resilience_lab::query::Query;
use resilience_lab::report::{Report, Stopped};
use resilience_lab::scenario::{Scenario, presets};
use resilience_lab::state::runs::{Job, Side};
use resilience_lab::state::storm::StormState;
use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::process::ExitCode;

const USAGE: &str = "usage:
  lab presets
  lab run (--preset NAME [--versus] | --scenario FILE.json | --link QUERY [--versus]) [--seed N]
          [--format json|table|csv|digest] [--engine auto|general] [--max-calls N]
  lab show --preset NAME [--versus]
  lab sweep [--preset NAME] [--x KNOB=A..B/N] [--y KNOB=A..B/N] [--protect none|budget|cancel|breaker]
            [--seed N] [--format table|csv]
  lab keys

  --versus runs the preset's comparison scenario (side B of compare mode).
  --link runs what a storm page link shows (its side A; side B with --versus), seed included.
  --engine general skips the retry-chain kernel (same report, slower; for comparisons).
  --max-calls refuses scenarios implying more calls than N (1 to 200000000, the default).
  --format: json the whole report; table its summary and hops; csv its time series (one row a
  bucket); digest the report's FNV-1a digest, as the page's data-digest.
  -h, --help after any command prints this.
  sweep: the stability map (default: metastable-retry-storm, utilisation=0.05..1/20 against
  trigger_ms=50..1000/20); KNOB is utilisation, trigger_ms or any storm page key (lab keys).";

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

fn parse_run(args: &[String]) -> Result<RunArgs, UsageError> {
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
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, UsageError> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| UsageError(format!("{name} needs a value\n{USAGE}")))
        };
        match flag {
            "--preset" => out.preset = Some(value("--preset")?),
            "--versus" if inline.is_none() => out.versus = true,
            "--scenario" => out.file = Some(value("--scenario")?),
            "--link" => out.link = Some(value("--link")?),
            "--seed" => {
                let v = value("--seed")?;
                out.seed = Some(v.parse().map_err(|_| {
                    UsageError(format!("--seed: got {v:?}, allowed a whole number from 0 to {}", u64::MAX))
                })?);
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
                        UsageError(format!(
                            "--max-calls: got {v:?}, allowed a whole number from 1 to {DEFAULT_MAX_CALLS}"
                        ))
                    })?;
            }
            "--engine" => {
                let v = value("--engine")?;
                out.engine = match v.as_str() {
                    "auto" => Engine::Auto,
                    "general" => Engine::General,
                    _ => {
                        return Err(UsageError(format!("--engine: got {v:?}, allowed one of auto, general")));
                    }
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
                        return Err(UsageError(format!(
                            "--format: got {v:?}, allowed one of json, table, csv, digest"
                        )));
                    }
                };
            }
            _ => return Err(UsageError(format!("unknown argument {a:?}\n{USAGE}"))),
        }
    }
    if [out.preset.is_some(), out.file.is_some(), out.link.is_some()].iter().filter(|x| **x).count() != 1 {
        return Err(UsageError(format!("give exactly one of --preset, --scenario or --link\n{USAGE}")));
    }
    if out.versus && out.file.is_some() {
        return Err(UsageError(format!("--versus needs --preset or --link\n{USAGE}")));
    }
    Ok(out)
}

fn preset_names() -> String {
    presets::all().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// The scenario and seed a storm page link runs: the page's own reading of it (the same
/// `Job` its worker runs), refused with the field's message where the page would show one.
fn link_scenario(
    link: &str,
    versus: bool,
) -> Result<(Scenario, u64, Option<resilience_lab::export::ReportLink>), UsageError> {
    let q = Query::parse(link);
    if let Some(page) = q.get("page").filter(|p| *p != "storm") {
        return Err(UsageError(format!(
            "--link: got page={}, allowed a retry-storm page link (page=storm or no page): only its runs have a CLI twin",
            resilience_lab::error::clip(page)
        )));
    }
    let st = StormState::from_query(&q);
    if let Some((_, _, e)) = st.errors.iter().next() {
        // The range in the unit of the page's control for the key (as the page says it).
        let unit =
            resilience_lab::state::storm::number_for_url_key(&e.field).map_or("", |d| d.knob.range.unit);
        return Err(UsageError(format!("--link: {}", Lang::En.named_error(e, &e.field, unit))));
    }
    if !st.unknown.is_empty() {
        return Err(UsageError(format!(
            "--link: the storm page does not read {}",
            resilience_lab::error::clip_list(&st.unknown, 8)
        )));
    }
    if versus && !st.compare {
        return Err(UsageError("--versus: the link has no side B (add compare=1)".to_string()));
    }
    let side = if versus { Side::B } else { Side::A };
    let query = st.run_query();
    let (scenario, seed) = Job::Storm { query: query.clone(), side }
        .scenario()
        .map_err(|e| UsageError(format!("--link: {}", Lang::En.field_error(&e))))?;
    Ok((scenario, seed, resilience_lab::state::runs::report_link(&query, side)))
}

fn load_scenario(args: &RunArgs) -> Result<Scenario, UsageError> {
    if let Some(name) = &args.preset {
        let p = presets::find(name).ok_or_else(|| {
            UsageError(format!("--preset: got {name:?}, allowed one of {}", preset_names()))
        })?;
        return match (args.versus, p.versus) {
            (false, _) => Ok((p.build)()),
            (true, Some(v)) => Ok((v.build)()),
            (true, None) => Err(UsageError(format!("--versus: preset {name:?} has no comparison scenario"))),
        };
    }
    let path = args.file.as_deref().unwrap_or_default();
    let cannot = |e: std::io::Error| UsageError(format!("--scenario: cannot read {path:?}: {e}"));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(cannot)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(UsageError(format!(
            "--scenario: {path:?} is larger than {} MiB, allowed a scenario file of at most that size",
            MAX_FILE_BYTES >> 20
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        UsageError(format!("--scenario: {path:?} is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
    })?;
    Scenario::from_json(&text).map_err(|e| UsageError(format!("{path}: {e}")))
}

fn run(args: &[String]) -> Result<String, (u8, String)> {
    let args = parse_run(args).map_err(|e| (2, e.0))?;
    let (scenario, seed, link) = match &args.link {
        Some(link) => link_scenario(link, args.versus).map_err(|e| (2, e.0))?,
        None => {
            let s = load_scenario(&args).map_err(|e| (2, e.0))?;
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
        SimError::Invalid(_) | SimError::TooMuchWork { .. } => (2, e.to_string()),
        SimError::Internal(_) => (1, e.to_string()),
    })?;
    if let Some(stop) = report.summary.stopped {
        eprintln!("lab: notice: {}", stopped_notice(stop));
    }
    Ok(match args.format {
        // The page's "export JSON" and "export CSV" print through the same functions.
        Format::Json => resilience_lab::export::report_json(&report, link.as_ref()),
        Format::Table => table(&report, scenario.slo),
        Format::Csv => resilience_lab::export::series_csv(&report),
        Format::Digest => format!("{:016x}\n", resilience_lab::state::runs::report_digest(&report)),
    })
}

/// What a stopped run says on stderr.
fn stopped_notice(stop: Stopped) -> String {
    match stop {
        Stopped::CallsAlive { at_ms, limit } => format!(
            "the run stopped at {at_ms} ms: more than {limit} calls were alive at once (queues and \
             retries grew without bound: the system diverged). The report covers what happened up to then; \
             requests still in flight count as unfinished."
        ),
        Stopped::Work { at_ms, limit } => format!(
            "the run stopped at {at_ms} ms after {limit} events, more than its work estimate allows. \
             The report covers what happened up to then."
        ),
    }
}

fn table(r: &Report, slo: Slo) -> String {
    let s = &r.summary;
    let budget = slo.budget(s);
    let mut out = String::new();
    let _ = writeln!(out, "scenario  {}  (seed {})", r.scenario, r.seed);
    let rows: Vec<(&str, String)> = vec![
        ("original_requests", s.original_requests.to_string()),
        ("downstream_attempts", s.downstream_attempts.to_string()),
        ("attempts_per_hop", format!("{:?}", s.attempts_per_hop)),
        ("amplification", format!("{:.2}×  (leaf calls per original request)", s.amplification)),
        ("succeeded", s.succeeded.to_string()),
        ("degraded", s.degraded.to_string()),
        // A run stopped early counts the requests still in flight as failed: said here, as
        // the JSON's `unfinished` says it.
        (
            "failed",
            match s.unfinished {
                0 => s.failed.to_string(),
                n => format!("{} (incl. {n} unfinished: still in flight when the run stopped)", s.failed),
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
            format!(
                "{} % {}: {} failed of {} allowed ({:.1} % of the error budget)",
                slo.success_percent,
                if budget.met { "met" } else { "breached" },
                budget.spent,
                resilience_lab::plot::storm::allowance(budget.allowed),
                budget.spent_fraction * 100.0
            ),
        ),
        (
            "latency_ms p50/p99/max",
            format!("{} / {} / {}", s.latency_ms.p50, s.latency_ms.p99, s.latency_ms.max),
        ),
        ("end_ms", format!("{:.1}  (virtual time of the last event)", s.end_ms)),
    ];
    for (k, v) in rows {
        let _ = writeln!(out, "{k:<24}{v}");
    }
    let _ = writeln!(
        out,
        "\n{:<18}{:>10}{:>10}{:>10}{:>14}{:>10}",
        "hop", "calls", "rejected", "abandoned", "peak busy", "peak q"
    );
    for h in &r.hops {
        // Busy against the worker limit, so that a full pool shows as one (∞: no limit).
        let busy =
            format!("{}/{}", h.peak_in_flight, h.workers.map_or_else(|| "∞".to_string(), |w| w.to_string()));
        let _ = writeln!(
            out,
            "{:<18}{:>10}{:>10}{:>10}{:>14}{:>10}",
            h.name, h.calls, h.rejected, h.abandoned_work, busy, h.peak_queue
        );
    }
    out.push_str(
        "\ncalls: calls that reached the hop (retries included); rejected: turned away by its admission\n\
         or full queue; abandoned: worked on after the caller had stopped waiting; peak busy: most\n\
         calls holding a worker at once / workers; peak q: most calls waiting for a worker at once.\n",
    );
    out
}

/// The retry-storm page's link keys, from the page's own control tables.
fn keys() -> String {
    let mut out = String::from(
        "Retry-storm page (?page=storm): preset=NAME, seed=N, compare=1, layers=N, faults=N,\n\
         l<N>.sides=N, f<N>.target=NAME, and every changed control:\n\n",
    );
    let docs = resilience_lab::state::storm::key_docs();
    // The widest key sets the column, so that every line's range starts in it.
    let width = docs.iter().map(|d| d.key.chars().count()).max().unwrap_or(0);
    for d in docs {
        let unit = if d.unit.is_empty() { String::new() } else { format!(" ({})", d.unit) };
        let _ = writeln!(out, "{:<width$}  {}{}  — {}", d.key, d.accepts, unit, d.label);
    }
    out
}

/// `lab sweep`: every cell of the stability map, run and judged as the page's workers do.
fn sweep(args: &[String]) -> Result<String, (u8, String)> {
    use resilience_lab::state::stability::{self as st, Axis, Protection, Sweep};
    let usage = |m: String| (2u8, format!("{m}\n{USAGE}"));
    let mut preset = st::DEFAULT_PRESET.to_string();
    let (mut x, mut y, mut protect, mut seed, mut csv) = (None, None, None, None, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| usage(format!("{flag} needs a value")))
        };
        match flag {
            "--preset" => preset = value()?,
            "--x" => x = Some(Axis::parse("--x", &value()?).map_err(|e| (2, e.to_string()))?),
            "--y" => y = Some(Axis::parse("--y", &value()?).map_err(|e| (2, e.to_string()))?),
            "--protect" => {
                let v = value()?;
                protect = Some(Protection::parse(&v).ok_or_else(|| {
                    (2, format!("--protect: got {v:?}, allowed one of none, budget, cancel, breaker"))
                })?);
            }
            "--seed" => {
                let v = value()?;
                seed = Some(v.parse::<u64>().map_err(|_| {
                    (2, format!("--seed: got {v:?}, allowed a whole number from 0 to {}", u64::MAX))
                })?);
            }
            "--format" => {
                csv = match value()?.as_str() {
                    "csv" => true,
                    "table" => false,
                    v => return Err((2, format!("--format: got {v:?}, allowed one of table, csv"))),
                }
            }
            _ => return Err(usage(format!("unknown argument {a:?}"))),
        }
    }
    let p = presets::find(&preset)
        .ok_or_else(|| (2, format!("--preset: got {preset:?}, allowed one of {}", preset_names())))?;
    let mut s = Sweep::default_for(p.name);
    let y_given = y.is_some();
    s.x = x.unwrap_or(s.x);
    s.y = y.unwrap_or(s.y);
    s.seed = seed.unwrap_or(s.seed);
    s.protect = protect.unwrap_or(Protection::None);
    // The same knob on both axes is named by the flag given (the other is the default's).
    let given = if y_given { "--y" } else { "--x" };
    s.axes_differ(given).and_then(|()| s.check()).map_err(|e| (2, e.to_string()))?;
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
    out.push_str("legend: ");
    for (mark, ms) in BAND_MARKS.iter().zip(RECOVERY_BANDS_MS) {
        let _ = write!(
            out,
            "{mark} recovered within {} s   ",
            resilience_lab::i18n::format_number(ms / 1000.0, 1)
        );
    }
    out.push_str(
        "o recovered later\n        ~ still draining its backlog (not stuck)   # stuck (the metastable state)   \
         x overloaded (at or above capacity, or failing before the trigger)   ? could not run\n",
    );
    let _ = writeln!(out, "{:>10} ↑ {}{}", "", s.y.key, axis_unit(&s.y.key));
    for j in (0..s.y.n).rev() {
        let _ = write!(out, "{:>10} ", resilience_lab::i18n::format_number(s.y.value(j), 3));
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
    let num = resilience_lab::state::storm::url_num;
    let _ =
        writeln!(out, "{:>10} {} … {} → {}{}", "", num(s.x.from), num(s.x.to), s.x.key, axis_unit(&s.x.key));
    Ok(out)
}

/// A sweep axis' unit as the text map writes it after the key (` (ms)`), from the storm
/// page's own control for the key; nothing for a count.
fn axis_unit(key: &str) -> String {
    let unit = match key {
        "utilisation" => "share of capacity",
        "trigger_ms" => "ms",
        k => resilience_lab::state::storm::number_for_url_key(k).map_or("", |d| d.knob.range.unit),
    };
    if unit.is_empty() { String::new() } else { format!(" ({unit})") }
}

/// `lab show --preset NAME [--versus]`: the preset as a scenario file. Other flags are
/// refused rather than ignored (a seed or format given here would change nothing).
fn show(args: &[String]) -> Result<String, (u8, String)> {
    let a = parse_run(args).map_err(|e| {
        let m = if e.0.starts_with("give exactly one") {
            format!("show needs --preset NAME\n{USAGE}")
        } else {
            e.0
        };
        (2, m)
    })?;
    let only = a.preset.is_some()
        && a.seed.is_none()
        && matches!(a.format, Format::Json)
        && matches!(a.engine, Engine::Auto)
        && a.max_calls == DEFAULT_MAX_CALLS;
    if !only {
        return Err((2, format!("show takes only --preset NAME [--versus]\n{USAGE}")));
    }
    load_scenario(&a).map(|s| serde_json::to_string_pretty(&s).unwrap_or_default()).map_err(|e| (2, e.0))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `lab run --help` and the like: the usage, which covers every subcommand.
    let help = args.iter().any(|a| matches!(a.as_str(), "-h" | "--help"));
    let result = match args.first().map(String::as_str) {
        _ if help => Ok(format!("{USAGE}\n")),
        Some("presets") if args.len() == 1 => Ok(presets::all()
            .iter()
            .map(|p| format!("{:<28}  {}\n", p.name, p.story(resilience_lab::i18n::Lang::En)))
            .collect::<String>()),
        Some("run") => run(&args[1..]),
        Some("sweep") => sweep(&args[1..]),
        Some("keys") if args.len() == 1 => Ok(keys()),
        Some("show") => show(&args[1..]),
        Some("help") => Ok(format!("{USAGE}\n")),
        Some(c @ ("presets" | "keys")) => Err((2, format!("{c} takes no arguments\n{USAGE}"))),
        Some(other) => Err((2, format!("unknown command {other:?}\n{USAGE}"))),
        None => Err((2, USAGE.to_string())),
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
                    eprintln!("lab: cannot write the output: {e}");
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
