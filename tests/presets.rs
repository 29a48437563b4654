//! Every preset's numbers from the source documents, asserted exactly through the library
//! and through the `lab` command line, and the command line's handling of bad input.
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::i18n::Lang;
use resilience_lab::model::chain::run;
use resilience_lab::report::{Report, RequestOutcome};
use resilience_lab::scenario::presets;
use std::process::Command;

fn lib(name: &str) -> Report {
    let p = presets::find(name).unwrap_or_else(|| panic!("preset {name}"));
    run(&(p.build)()).expect("preset runs")
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_lab")).env("LAB_LANG", "en").args(args).output().expect("lab runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn cli_report(name: &str) -> Report {
    let (code, stdout, stderr) = cli(&["run", "--preset", name, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("the CLI prints a Report")
}

/// Both paths, so each assertion covers the library and the command line.
fn both(name: &str) -> [Report; 2] {
    let a = lib(name);
    let b = cli_report(name);
    assert_eq!(a, b, "{name}: library and CLI agree");
    [a, b]
}

#[test]
fn lab11_unprotected_900_calls_every_request_1020_ms() {
    for r in both("lab11-unprotected") {
        let s = &r.summary;
        assert_eq!(s.original_requests, 100);
        assert_eq!(s.downstream_attempts, 900);
        assert_eq!(s.attempts_per_hop, vec![100, 300, 900]);
        assert_eq!(s.failed, 100);
        assert_eq!((s.latency_ms.p50, s.latency_ms.p99, s.latency_ms.max), (1020.0, 1020.0, 1020.0));
        let failed = r.latency.iter().find(|d| d.outcome == RequestOutcome::Failed).unwrap();
        assert_eq!(failed.count, 100);
        assert_eq!(failed.percentiles.p50, 1020.0, "every request ends after 1020 ms, not before");
        for t in &r.traces {
            assert_eq!(t.end_ms - t.arrival_ms, 1020.0, "request {}", t.request);
        }
    }
}

#[test]
fn lab11_protected_20_admitted_80_rejected_40_calls_220_ms() {
    for r in both("lab11-protected") {
        let s = &r.summary;
        assert_eq!(s.admission_rejected, 80);
        assert_eq!(s.original_requests - s.admission_rejected, 20, "20 admitted");
        assert_eq!(s.downstream_attempts, 40);
        assert_eq!(s.latency_ms.max, 220.0, "100 + 20 + 100");
        assert_eq!(s.degraded, 20, "admitted requests degrade instead of failing");
        assert_eq!(s.failed, 0);
        assert_eq!(s.budget_exhausted, 0);
    }
}

#[test]
fn lab11_budget_150_only_first_attempts() {
    for r in both("lab11-budget-150") {
        let s = &r.summary;
        assert_eq!(s.downstream_attempts, 20);
        assert_eq!(s.budget_exhausted, 20, "checked before the backoff sleep");
        assert_eq!(s.latency_ms.max, 100.0);
    }
}

#[test]
fn chains_amplify_9_27_64() {
    for (name, amp, rate) in [("chain-2x3", 9.0, 500), ("chain-3x3", 27.0, 1000), ("chain-3x4", 64.0, 1000)] {
        for r in both(name) {
            let s = &r.summary;
            assert_eq!(s.amplification, amp, "{name}");
            assert_eq!(s.original_requests, rate, "{name}: one second of traffic");
            assert_eq!(s.downstream_attempts as f64, amp * rate as f64, "{name}");
        }
    }
    // 1,000 QPS × 27 = 27,000 leaf calls in the second of traffic.
    assert_eq!(lib("chain-3x3").summary.downstream_attempts, 27_000);
}

#[test]
fn recommendation_500rps_saturates_the_pool() {
    for r in both("recommendation-500rps") {
        let profile = r.hops.iter().find(|h| h.name == "profile").unwrap();
        assert_eq!(profile.workers, Some(200));
        assert_eq!(profile.peak_in_flight, 200, "the pool is full");
        assert!(profile.peak_queue > 1000, "calls pile up behind it: {}", profile.peak_queue);
        assert!(profile.abandoned_work > 0, "timed-out calls still hold workers");
        assert!(r.summary.timeouts > 0 && r.summary.retries > 0);
        assert!(r.summary.core_success_rate < 0.5);
    }
}

#[test]
fn cli_lists_presets_and_prints_every_format() {
    let (code, out, _) = cli(&["presets"]);
    assert_eq!(code, 0);
    for p in presets::all() {
        assert!(out.contains(p.name), "{} listed", p.name);
    }
    let (code, table, _) = cli(&["run", "--preset", "chain-3x3", "--format", "table"]);
    assert_eq!(code, 0);
    assert!(table.contains("downstream_attempts     27000"), "{table}");
    let (code, csv, _) = cli(&["run", "--preset", "chain-3x3", "--format", "csv"]);
    assert_eq!(code, 0);
    let mut lines = csv.lines();
    let units = lines.next().unwrap();
    assert!(units.starts_with("# bucket_ms=10: offered") && units.contains("most at once"), "{units}");
    let header = lines.next().unwrap();
    assert!(header.starts_with("t_ms,offered,attempts_client"), "{header}");
    let (code, shown, _) = cli(&["show", "--preset", "lab11-protected"]);
    assert_eq!(code, 0);
    let back = resilience_lab::scenario::Scenario::from_json(&shown).unwrap();
    assert_eq!(back, presets::lab11_protected(), "show prints a loadable scenario file");
}

#[test]
fn cli_help_unknown_commands_and_flag_bounds() {
    for args in [&["run", "--help"][..], &["sweep", "-h"], &["show", "--help"], &["help"]] {
        let (code, out, _) = cli(args);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.starts_with("usage:"), "{args:?}: {out}");
    }
    let (code, _, err) = cli(&["calc"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown command \"calc\""), "{err}");
    let (code, _, err) = cli(&["presets", "extra"]);
    assert!(code == 2 && err.contains("presets takes no arguments"), "{err}");
    for bad in ["1.5", "1e30", "0", "300000000"] {
        let (code, _, err) = cli(&["run", "--preset", "chain-3x3", "--max-calls", bad]);
        assert!(code == 2 && err.contains("allowed a whole number from 1 to 200000000"), "{bad}: {err}");
    }
    let (code, _, err) = cli(&["show", "--preset", "chain-3x3", "--seed", "5"]);
    assert!(code == 2 && err.contains("show takes only --preset"), "{err}");
    let (code, _, err) = cli(&["run", "--link", "?page=calculator&rps=100"]);
    assert!(code == 2 && err.contains("got page=calculator, allowed a retry-storm page link"), "{err}");
    let (code, _, err) = cli(&["show"]);
    assert!(code == 2 && err.contains("show needs --preset NAME"), "{err}");
    // The table explains itself: units, the worker limit beside the peak.
    let (_, table, _) = cli(&["run", "--preset", "recommendation-500rps", "--format", "table"]);
    assert!(table.contains("200/200") && table.contains("peak busy: most"), "{table}");
    assert!(table.lines().any(|l| l.starts_with("core_success_rate") && l.ends_with('%')), "{table}");
    // The error budget is written as the page's card writes it: spent 920 times over is
    // "920×" in both (the table had said "92000.0 %"), and a small share a percentage.
    let (_, json, _) = cli(&["run", "--preset", "recommendation-500rps"]);
    let r: Report = serde_json::from_str(&json).unwrap();
    let spent = resilience_lab::model::slo::Slo::default().budget(&r.summary).spent_fraction;
    assert!(spent >= 10.0, "{spent}");
    let card = resilience_lab::plot::storm::Unit::Percent.write(Lang::En, spent);
    assert!(
        table.contains(&format!("error budget spent: {card};")) && card.ends_with('×'),
        "{card}: {table}"
    );
    let (_, table, _) = cli(&["run", "--preset", "lab11-protected", "--format", "table"]);
    assert!(table.contains("error budget spent: 0 %;"), "{table}");
}

#[test]
fn cli_seed_changes_random_runs_only() {
    let summary = |preset: &str, seed: &str| {
        let (code, out, _) = cli(&["run", "--preset", preset, "--seed", seed]);
        assert_eq!(code, 0);
        let r: Report = serde_json::from_str(&out).unwrap();
        assert_eq!(r.seed.to_string(), seed);
        (out, serde_json::to_string(&r.summary).unwrap())
    };
    // Poisson arrivals and random failures: the seed changes the run, and only the seed.
    let (a, sa) = summary("breaker-demo", "7");
    let (a2, _) = summary("breaker-demo", "7");
    let (_, sb) = summary("breaker-demo", "8");
    assert_eq!(a, a2, "same seed, same bytes");
    assert_ne!(sa, sb, "another seed, another run");
    // Constant arrivals into an always-failing leaf: nothing is random, so every seed gives
    // the same figures.
    assert_eq!(summary("chain-3x3", "7").1, summary("chain-3x3", "8").1);
}

#[test]
fn cli_reads_a_scenario_from_the_standard_input() {
    use std::io::Write;
    let (_, shown, _) = cli(&["show", "--preset", "chain-3x3"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_lab"))
        .env("LAB_LANG", "en")
        .args(["run", "--scenario", "-", "--format", "digest"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("lab runs");
    child.stdin.take().unwrap().write_all(shown.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let (_, direct, _) = cli(&["run", "--preset", "chain-3x3", "--format", "digest"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), direct, "piped in, the preset's own run");
}

#[test]
fn cli_general_engine_prints_the_same_report() {
    for preset in ["chain-3x3", "lab11-unprotected", "lab11-protected"] {
        let auto = cli(&["run", "--preset", preset]);
        let general = cli(&["run", "--preset", preset, "--engine", "general"]);
        assert_eq!((auto.0, general.0), (0, 0));
        assert_eq!(auto.1, general.1, "{preset}: same bytes on either engine");
    }
}

fn write_tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn cli_bad_input_exits_2_with_a_message() {
    let valid = serde_json::to_string(&presets::lab11_protected()).unwrap();
    let out_of_range = valid.replace("\"max_attempts\":2", "\"max_attempts\":50");
    assert_ne!(valid, out_of_range);
    let wrong_type = valid.replace("\"max_attempts\":2", "\"max_attempts\":\"two\"");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["run".into(), "--scenario".into(), "/nonexistent/x.json".into()], "cannot read"),
        (
            vec!["run".into(), "--scenario".into(), write_tmp("garbage.json", "{not json")],
            "allowed valid JSON",
        ),
        (
            vec!["run".into(), "--scenario".into(), write_tmp("types.json", &wrong_type)],
            "layers[1].client.retry.max_attempts: got string \"two\", allowed a whole number from 1 to 10",
        ),
        (
            vec!["run".into(), "--scenario".into(), write_tmp("range.json", &out_of_range)],
            "layers[1].client.retry.max_attempts: got 50, allowed a whole number from 1 to 10",
        ),
        (vec!["run".into(), "--preset".into(), "nope".into()], "--preset: got \"nope\""),
        (vec!["run".into(), "--preset".into(), "chain-3x3".into(), "--seed".into(), "-1".into()], "--seed"),
        (
            vec!["run".into(), "--preset".into(), "chain-3x3".into(), "--format".into(), "xml".into()],
            "--format",
        ),
        (
            vec!["run".into(), "--preset".into(), "chain-3x3".into(), "--engine".into(), "fast".into()],
            "--engine: got \"fast\", allowed one of auto, general",
        ),
        (vec!["run".into()], "exactly one of"),
        (vec!["frobnicate".into()], "usage"),
    ];
    for (args, needle) in cases {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = cli(&refs);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?} printed nothing on stdout");
        assert!(stderr.contains(needle), "{args:?}: {stderr:?} should mention {needle:?}");
        assert!(!stderr.contains("panicked"), "{args:?}");
    }
}

#[test]
fn too_much_work_is_refused_with_a_clear_message() {
    let mut s = presets::chain_3x4();
    s.load = resilience_lab::scenario::Load::Poisson { rate_per_s: 1e6, peak_factor: 1.0, duration_ms: 1e9 };
    let text = serde_json::to_string(&s).unwrap();
    let (code, _, stderr) = cli(&["run", "--scenario", &write_tmp("huge.json", &text)]);
    assert_eq!(code, 2);
    assert!(stderr.contains("allowed at most") && stderr.contains("above the cap"), "{stderr}");
}

/// A story that names an order of protections names the order the engine ran, in both
/// languages (the words come from the report's `clients[i].stack`).
#[test]
fn stories_state_the_order_the_engine_ran() {
    use resilience_lab::i18n::Lang;
    let mut checked = 0;
    for p in presets::all() {
        for lang in Lang::ALL {
            let story = p.story(lang);
            assert!(!story.contains('{'), "{}: a placeholder is left in {story}", p.name);
        }
        let Some(callee) = p.story_stack else { continue };
        let r: Report = run(&(p.build)()).unwrap();
        let hop = r.hops.iter().position(|h| h.name == callee).unwrap();
        let stack = &r.clients.iter().find(|c| c.callee == hop).unwrap().stack;
        assert!(stack.len() >= 3, "{}: the story names a real stack: {stack:?}", p.name);
        for lang in Lang::ALL {
            let order = stack.iter().map(|&s| lang.stage_word(s)).collect::<Vec<_>>().join(" → ");
            assert!(p.story(lang).contains(&order), "{} ({lang:?}) names {order}", p.name);
        }
        checked += 1;
    }
    assert!(checked >= 1, "big-promo-protected's story names its order");
}

/// `lab keys` prints the storm page's link grammar from the page's own tables.
#[test]
fn cli_keys_list_every_control_of_the_storm_page() {
    use resilience_lab::state::storm::{CHOICES, NUMBERS};
    let out = Command::new(env!("CARGO_BIN_EXE_lab")).env("LAB_LANG", "en").arg("keys").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for d in NUMBERS {
        assert!(
            text.contains(&format!("){} ", d.knob.key)) || text.contains(&format!("\n{} ", d.knob.key)),
            "{}",
            d.knob.key
        );
    }
    for d in CHOICES {
        assert!(
            text.contains(&format!("){} ", d.choice.key)) || text.contains(&format!("\n{} ", d.choice.key)),
            "{}",
            d.choice.key
        );
    }
    assert!(
        text.contains("(l<N>. | s<N>.)attempts") && text.contains("a whole number from 1 to 10"),
        "{text}"
    );
}

#[test]
fn cli_runs_a_storm_page_link_as_the_page_does() {
    let digest = |args: &[&str]| {
        let (code, out, err) = cli(&[&["run", "--format", "digest"], args].concat());
        assert_eq!(code, 0, "{args:?}: {err}");
        out.trim().to_string()
    };
    // A link naming only a preset runs that preset, its seed included.
    assert_eq!(digest(&["--link", "?page=storm&preset=chain-3x3"]), digest(&["--preset", "chain-3x3"]));
    // The whole address "Copy link" gives reads as its query.
    assert_eq!(
        digest(&["--link", "http://127.0.0.1:8080/sub/index.html?page=storm&preset=chain-3x3#controls"]),
        digest(&["--preset", "chain-3x3"])
    );
    assert_eq!(
        digest(&["--link", "page=storm&preset=bulkhead-shared-vs-isolated&compare=1", "--versus"]),
        digest(&["--preset", "bulkhead-shared-vs-isolated", "--versus"]),
        "side B of compare mode is the preset's comparison"
    );
    // Settings pinned as side B run as B: the same as those settings on side A.
    assert_eq!(
        digest(&[
            "--link",
            "page=storm&preset=chain-3x3&compare=1&l1.attempts=2&pin=l1.attempts%3D4",
            "--versus"
        ]),
        digest(&["--link", "page=storm&preset=chain-3x3&l1.attempts=4"]),
        "a pinned side B"
    );
    // A shape only a link gives: five layers of 3 attempts.
    let (code, out, err) =
        cli(&["run", "--link", "?page=storm&preset=chain-3x3&layers=5", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let r: Report = serde_json::from_str(&out).unwrap();
    assert_eq!(r.summary.amplification, 243.0, "3^5");
    // What the page would refuse or not read, the command refuses, naming it.
    let (code, _, err) = cli(&["run", "--link", "?page=storm&preset=chain-3x3&l1.attempts=0"]);
    assert_eq!(code, 2);
    assert!(err.contains("l1.attempts") && err.contains("allowed"), "{err}");
    // With the unit the page's control gives the range in.
    let (code, _, err) = cli(&["run", "--link", "?page=storm&preset=chain-3x3&l1.per_try=-5"]);
    assert_eq!(code, 2);
    assert!(err.contains("l1.per_try = -5") && err.contains("86,400,000 ms"), "{err}");
    let (code, _, err) = cli(&["run", "--link", "?page=storm&zzz=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("zzz"), "{err}");
    let (code, _, err) = cli(&["run", "--link", "?page=storm", "--versus"]);
    assert_eq!(code, 2);
    assert!(err.contains("compare=1"), "{err}");
}

#[test]
fn an_edited_runs_json_names_the_link_that_runs_it_again() {
    let json = |args: &[&str]| {
        let (code, out, err) = cli(&[&["run", "--format", "json"], args].concat());
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    };
    // Every preset as shipped, both sides: no link, the bytes of --preset P.
    for p in resilience_lab::scenario::presets::all() {
        let link = format!("page=storm&preset={}&compare=1", p.name);
        assert_eq!(json(&["--link", &link]), json(&["--preset", p.name]), "{}", p.name);
        if p.versus.is_some() {
            assert_eq!(
                json(&["--link", &link, "--versus"]),
                json(&["--preset", p.name, "--versus"]),
                "{} B",
                p.name
            );
        }
    }
    // An edited run: its link, after the seed, and that link runs it again.
    let out = json(&["--link", "?page=storm&preset=chain-3x3&l1.attempts=4", "--seed", "5"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let link = v["link"].as_str().expect("a link").to_string();
    assert!(link.contains("l1.attempts=4") && link.contains("seed=5"), "{link}");
    assert!(
        out.find("\"link\"") > out.find("\"seed\"") && out.find("\"link\"") < out.find("\"summary\""),
        "{out:.300}"
    );
    assert_eq!(json(&["--link", &link]), out, "the named link gives the same report");
    let r: Report = serde_json::from_str(&out).unwrap();
    assert_eq!((r.seed, r.summary.amplification), (5, 36.0), "4 × 3 × 3");
    assert!(v.get("versus").is_none(), "side A's link runs side A");
    // Side B of an edited run says so: its link is run with --versus. (chain-3x3 has no
    // comparison scenario: its side B is the preset, here tracing request 3.)
    let out = json(&["--link", "preset=chain-3x3&compare=1&request=3", "--versus"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let link = v["link"].as_str().expect("side B's link").to_string();
    assert_eq!(v["versus"], serde_json::Value::Bool(true), "{out:.300}");
    assert_eq!(json(&["--link", &link, "--versus"]), out, "the named link and --versus give the same report");
}

/// The command line speaks the page's two languages (`--lang`, else `LAB_LANG`), from the
/// page's own tables; its JSON, CSV and digests, the page's exports, are the same in both.
#[test]
fn cli_speaks_english_and_chinese_and_its_data_does_not_change() {
    let zh = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_lab")).env("LAB_LANG", "zh").args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    // Help, table, keys, presets and the sweep's map in Chinese; with --lang too.
    let (code, help, _) = zh(&["--help"]);
    assert!(code == 0 && help.starts_with("用法") && help.contains("--lang"), "{help}");
    let (_, en_help, _) = cli(&["--lang", "en", "--help"]);
    assert!(en_help.starts_with("usage:") && en_help.contains("--lang"), "{en_help}");
    let (code, table, _) = zh(&["run", "--preset", "chain-2x3", "--format", "table"]);
    assert!(
        code == 0
            && table.contains("场景")
            && table.contains("每个原始请求对应的叶子调用数")
            && table.contains("服务"),
        "{table}"
    );
    let (_, en_table, _) = cli(&["run", "--preset", "chain-2x3", "--format", "table", "--lang=zh"]);
    assert_eq!(en_table, table, "--lang zh wins over LAB_LANG=en");
    let (_, keys, _) = zh(&["keys"]);
    assert!(keys.contains("重试风暴页") && keys.contains("(l<N>. | s<N>.)attempts"), "{keys}");
    let (_, list, _) = zh(&["presets"]);
    assert!(list.lines().count() == presets::all().len() && list.contains("lab11-unprotected"), "{list}");
    // The data is the page's export: the same bytes in both languages.
    for format in ["json", "csv", "digest"] {
        let (_, a, _) = cli(&["run", "--preset", "breaker-demo", "--format", format]);
        let (_, b, _) = zh(&["run", "--preset", "breaker-demo", "--format", format]);
        assert_eq!(a, b, "{format}");
    }
    // Errors name the field, the value and the range in the language asked for.
    let (code, _, err) = zh(&["run", "--preset", "chain-2x3", "--seed", "-1"]);
    assert!(code == 2 && err.contains("--seed") && err.contains("-1") && err.contains("整数"), "{err}");
    let (code, _, err) = cli(&["run", "--preset", "nope"]);
    assert!(code == 2 && err.contains("--preset") && err.contains("chain-2x3"), "{err}");
    let (code, _, err) = cli(&["--lang", "fr", "presets"]);
    assert!(code == 2 && err.contains("--lang") && err.contains("zh"), "{err}");
    // A Chinese service name keeps the hops' columns in line (two columns a character).
    let (_, t, _) = zh(&["run", "--preset", "lab11-unprotected", "--format", "table"]);
    let rows: Vec<&str> = t.lines().skip_while(|l| !l.starts_with("服务")).take(4).collect();
    let width = |l: &str| l.chars().map(|c| if u32::from(c) >= 0x2E80 { 2 } else { 1 }).sum::<usize>();
    assert!(rows.len() == 4 && rows.iter().all(|r| width(r) == width(rows[0])), "{rows:#?}");
}

/// A flag given twice is refused (the last had silently won), and a run's report handed in
/// as a scenario says what it is and what to run instead.
#[test]
fn cli_refuses_a_repeated_flag_and_names_a_report_given_as_a_scenario() {
    for args in [
        &["run", "--preset", "chain-2x3", "--seed", "1", "--seed", "2"][..],
        &["run", "--preset", "chain-2x3", "--format", "table", "--format=json"],
        &["sweep", "--x", "utilisation=0.5..0.9/3", "--x", "utilisation=0.1..0.9/3"],
    ] {
        let (code, out, err) = cli(args);
        assert!(code == 2 && out.is_empty() && err.contains("twice"), "{args:?}: {err}");
    }
    let dir = std::env::temp_dir().join(format!("lab-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("report.json");
    let (_, report, _) = cli(&["run", "--preset", "chain-2x3", "--format", "json"]);
    std::fs::write(&path, report).unwrap();
    let (code, _, err) = cli(&["run", "--scenario", path.to_str().unwrap()]);
    assert!(code == 2 && err.contains("report") && err.contains("lab show --preset"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A student's small stumbles: `--version`; a scenario file saved "with BOM" by an editor;
/// a sweep of a preset whose default map cannot run says to give the axes.
#[test]
fn cli_version_bom_and_a_preset_without_a_default_map() {
    let (code, out, _) = cli(&["--version"]);
    assert!(code == 0 && out.starts_with("lab ") && out.trim().len() > 4, "{out}");
    let (_, shown, _) = cli(&["show", "--preset", "chain-2x3"]);
    let dir = std::env::temp_dir().join(format!("lab-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bom.json");
    std::fs::write(&path, [&[0xEF, 0xBB, 0xBF][..], shown.as_bytes()].concat()).unwrap();
    let (code, with_bom, err) = cli(&["run", "--scenario", path.to_str().unwrap(), "--format", "digest"]);
    let (_, plain, _) = cli(&["run", "--preset", "chain-2x3", "--format", "digest"]);
    assert!(code == 0 && with_bom == plain, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, _, err) = cli(&["sweep", "--preset", "chain-2x3"]);
    assert!(code == 2 && err.contains("give --x and --y"), "{err}");
}

/// A scenario file's own words (a key given twice, a required key left out, a list where an
/// object was wanted) are said in Chinese too, not left in English inside a Chinese message.
#[test]
fn a_scenario_files_words_are_said_in_the_language_asked_for() {
    use std::io::Write;
    let say = |lang: &str, text: &str| -> String {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lab"))
            .env("LAB_LANG", lang)
            .args(["run", "--scenario", "-"])
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("lab runs");
        child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("written");
        let out = child.wait_with_output().expect("lab ends");
        assert_eq!(out.status.code(), Some(2), "refused");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let preset = {
        let (_, shown, _) = cli(&["show", "--preset", "chain-2x3"]);
        shown
    };
    let twice = preset.replacen("\"seed\":", "\"seed\": 1, \"seed\":", 1);
    let missing = {
        let mut v: serde_json::Value = serde_json::from_str(&preset).expect("JSON");
        v.as_object_mut().expect("object").remove("load");
        v.to_string()
    };
    for (text, en, zh) in [
        (twice.as_str(), "seed: got twice", "两个值"),
        (missing.as_str(), "load: got nothing", "（缺失）"),
        ("[1]", "got a list, allowed an object (Scenario)", "一个列表"),
        (&preset.replacen("\"rate_per_s\":", "\"rate_per_s\": [1], \"x\":", 1), "got a list", "一个列表"),
    ] {
        let (e, z) = (say("en", text), say("zh", text));
        assert!(e.contains(en), "{e}");
        assert!(
            z.contains(zh) && !z.contains(" got ") && !z.contains("twice") && !z.contains("nothing"),
            "{z}"
        );
        assert!(!z.contains("a list") && !z.contains("an object"), "{z}");
    }
    assert!(say("zh", "[1]").contains("一个对象（Scenario）"), "{}", say("zh", "[1]"));
}

/// A practitioner's round trip: a page link as a scenario file (`show --link`), the file
/// edited and run, and back as a page link (`link --scenario`) that runs the same bytes; the
/// fields the page has no control for are named, not dropped in silence.
#[test]
fn cli_turns_links_into_scenario_files_and_back() {
    let dir = std::env::temp_dir().join(format!("lab-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let digest = |args: &[&str]| {
        let (code, out, err) = cli(&[&["run", "--format", "digest"], args].concat());
        assert_eq!(code, 0, "{args:?}: {err}");
        out.trim().to_string()
    };
    let page = "http://127.0.0.1:8080/sub/index.html?page=storm&preset=chain-3x3&seed=5&l1.attempts=4";
    let (code, file, err) = cli(&["show", "--link", page]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join("mine.json");
    std::fs::write(&path, &file).unwrap();
    let path = path.to_str().unwrap();
    assert_eq!(digest(&["--scenario", path]), digest(&["--link", page]), "the file runs what the link runs");
    let (code, link, err) = cli(&["link", "--scenario", path]);
    assert!(
        code == 0 && err.is_empty() && link.contains("l1.attempts=4") && link.contains("seed=5"),
        "{link} {err}"
    );
    assert_eq!(digest(&["--link", link.trim()]), digest(&["--scenario", path]), "and back");
    // A field with no control: the link is printed, the field named with both values.
    std::fs::write(dir.join("named.json"), file.replacen("\"client\"", "\"gateway\"", 1)).unwrap();
    let named = dir.join("named.json");
    let (code, link, err) = cli(&["link", "--scenario", named.to_str().unwrap()]);
    assert!(code == 0 && link.starts_with("?page=storm&preset=chain-3x3"), "{link}");
    assert!(err.contains("1 of") && err.contains("layers[0].name: \"gateway\" → \"client\""), "{err}");
    // A report is not a scenario: the message says how to get the scenario it ran.
    let (_, report, _) = cli(&["run", "--link", page]);
    std::fs::write(dir.join("report.json"), report).unwrap();
    let (code, _, err) = cli(&["run", "--scenario", dir.join("report.json").to_str().unwrap()]);
    assert!(code == 2 && err.contains("lab show --link"), "{err}");
    let (code, _, err) = cli(&["link", "--preset", "chain-3x3"]);
    assert!(code == 2 && err.contains("link needs --scenario"), "{err}");
    let (code, _, err) = cli(&["link", "--scenario", path, "--engine", "general"]);
    assert!(code == 2 && err.contains("link needs --scenario"), "{err}");
    let (code, _, err) = cli(&["link", "--scenario", path, "--format", "xml"]);
    assert!(code == 2 && err.contains("--format") && err.contains("xml"), "a flag's own error: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}
