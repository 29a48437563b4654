//! The page's export and the command line print one report the same way: the storm
//! page's "export JSON" and "export CSV" are byte for byte `lab run --format json|csv`.
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::export::{report_json, series_csv};
use resilience_lab::model::chain::run_with;
use resilience_lab::scenario::presets;
use std::process::Command;

fn cli(args: &[&str]) -> String {
    let out =
        Command::new(env!("CARGO_BIN_EXE_lab")).env("LAB_LANG", "en").args(args).output().expect("lab runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn exported_json_and_csv_are_the_cli_output_byte_for_byte() {
    for (name, seed) in [("chain-3x3", 7u64), ("big-promo-protected", 11), ("lab11-protected", 1)] {
        let p = presets::find(name).expect("preset");
        let scenario = (p.build)();
        let r = run_with(&scenario, seed, f64::INFINITY).expect("runs");
        let s = seed.to_string();
        assert_eq!(
            report_json(&r, None, scenario.slo),
            cli(&["run", "--preset", name, "--seed", &s, "--format", "json"]),
            "{name}"
        );
        assert_eq!(
            series_csv(&r),
            cli(&["run", "--preset", name, "--seed", &s, "--format", "csv"]),
            "{name}"
        );
    }
}

/// The JSON says the SLO verdict the table's `slo` row and the page's SLO line give, for the
/// objective the link names.
#[test]
fn the_json_gives_the_slo_verdict_of_the_objective_its_link_names() {
    let slo = |args: &[&str]| -> serde_json::Value {
        let v: serde_json::Value = serde_json::from_str(&cli(args)).expect("JSON");
        v["slo"].clone()
    };
    // The shared pool fails about half its requests: far over a 99.9 % objective's budget.
    let p = "bulkhead-shared-vs-isolated";
    let shipped = slo(&["run", "--preset", p, "--format", "json"]);
    assert_eq!(shipped["success_percent"], 99.9, "{shipped}");
    assert_eq!(shipped["met"], false, "{shipped}");
    let table = cli(&["run", "--preset", p, "--format", "table"]);
    let row = table.lines().find(|l| l.starts_with("slo ")).expect("the slo row");
    let spent = shipped["spent"].as_u64().expect("spent").to_string();
    assert!(row.contains("breached") && row.contains(&spent), "{row} vs {shipped}");
    // A 50 % objective allows half the admitted requests to fail: met, just.
    let lenient = slo(&["run", "--link", &format!("preset={p}&slo=50"), "--format", "json"]);
    assert_eq!(lenient["success_percent"], 50.0, "{lenient}");
    assert_eq!(lenient["met"], true, "{lenient}");
    assert_eq!(lenient["spent"], shipped["spent"], "the same run, judged by another objective");
}
