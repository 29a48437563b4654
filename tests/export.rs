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
        let r = run_with(&(p.build)(), seed, f64::INFINITY).expect("runs");
        let s = seed.to_string();
        assert_eq!(
            report_json(&r, None),
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
