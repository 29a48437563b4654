//! `lab sweep`, the stability map's native twin: its CSV is the sweep's cells, a protection
//! shrinks the stuck region, and bad input names its field.
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::model::stability::Outcome;
use resilience_lab::state::stability::{Axis, Protection, Sweep};
use std::process::Command;

fn lab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
        .env("LAB_LANG", "en")
        .arg("sweep")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn outcomes(csv: &str) -> Vec<String> {
    csv.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').nth(5).unwrap_or_default().to_string())
        .collect()
}

const X: &str = "utilisation=0.2..0.8/4";
const Y: &str = "trigger_ms=100..900/3";

#[test]
fn csv_rows_are_the_sweeps_cells() {
    let (code, out, err) = lab(&["--x", X, "--y", Y, "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let s = Sweep {
        x: Axis::parse("x", X).unwrap(),
        y: Axis::parse("y", Y).unwrap(),
        ..Sweep::default_for("metastable-retry-storm")
    };
    let want: Vec<String> =
        (0..s.cells()).map(|i| s.run_cell(i, false).unwrap().outcome.as_str().to_string()).collect();
    assert_eq!(outcomes(&out), want);
    assert!(out.starts_with("# preset=metastable-retry-storm seed=1 x=utilisation=0.2..0.8/4"), "{out}");
    assert!(want.iter().any(|o| o == "stuck") && want.iter().any(|o| o == "recovered"), "{want:?}");
}

#[test]
fn a_retry_budget_shrinks_the_stuck_region() {
    let stuck = |protect: &str| {
        let (code, out, err) = lab(&["--x", X, "--y", Y, "--format", "csv", "--protect", protect]);
        assert_eq!(code, 0, "{err}");
        outcomes(&out).iter().filter(|o| *o == Outcome::Stuck.as_str()).count()
    };
    let (plain, budget) = (stuck("none"), stuck("budget"));
    assert!(budget < plain, "stuck cells: {plain} without, {budget} with a retry budget");
    assert_eq!(Protection::parse("budget"), Some(Protection::Budget));
}

#[test]
fn the_default_map_prints_as_text() {
    let (code, out, err) = lab(&["--x", "utilisation=0.1..1/4", "--y", "trigger_ms=50..1000/2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().count(),
        9,
        "title, legend (two lines), y name, two rows, the x axis' ticks, values and name: {out}"
    );
    // Four columns are too narrow for four values: the ends, under the first and last ticks.
    let axis: Vec<&str> = out.lines().skip(6).take(2).collect();
    assert_eq!(axis[0].trim(), "|  |", "{out}");
    assert_eq!(axis[1].trim(), "0.1 … 1", "{out}");
    assert!(out.contains("# stuck") && out.contains("trigger_ms (ms)"), "{out}");
    // The map's rows (after the title, the legend and the y axis' name), not the legend.
    let rows: String = out.lines().skip(4).take(2).collect();
    assert!(rows.contains('#') && rows.contains('.'), "{out}");
}

#[test]
fn the_x_axis_labels_columns_under_their_ticks() {
    // Twenty columns from 0.05 to 1: every fifth labelled (values up to four characters
    // wide), and the last.
    let (code, out, err) = lab(&["--x", "utilisation=0.05..1/20", "--y", "trigger_ms=50..1000/2"]);
    assert_eq!(code, 0, "{err}");
    let axis: Vec<&str> = out.lines().skip(6).take(2).collect();
    let row = |l: &str| l.split_at(11).1.to_string();
    assert_eq!(row(axis[0]), "|    |    |    |   |", "{out}");
    assert_eq!(row(axis[1]), "0.05 0.3  0.55 0.8 1", "{out}");
    // Each cell's column is its value's: the map's first row starts where the ticks do.
    let first_row = out.lines().nth(4).expect("a row");
    assert_eq!(first_row.split_at(11).1.chars().count(), 20, "{first_row}");
}

#[test]
fn bad_input_names_its_field() {
    for (args, field) in [
        (vec!["--x", "rate=1..2"], "--x"),
        (vec!["--x", "utilisation=0.1..1/100"], "--x steps"),
        (vec!["--x", "nonsense=1..2/2"], "x"),
        (vec!["--protect", "helmet"], "--protect"),
        (vec!["--preset", "nope"], "--preset"),
        (vec!["--y", "l1.attempts=0..3/2"], "attempts"),
        (vec!["--wat"], "unknown argument"),
        // The same knob on both axes: the flag given is named (the other is the default's).
        (vec!["--x", "trigger_ms=50..1000/3"], "--x: got trigger_ms=50..1000/3"),
        (vec!["--y", "utilisation=0.1..1/3"], "--y: got utilisation=0.1..1/3"),
    ] {
        let (code, _, err) = lab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(field), "{args:?} should name {field}: {err}");
    }
}

/// Cells that cannot run say why: the map under its legend, the CSV in its `why` column, in
/// words (a Rust debug string had sat in the goodput column).
#[test]
fn cells_that_cannot_run_say_why() {
    let (code, map, err) = lab(&["--x", "utilisation=0.5..20000/3", "--y", "trigger_ms=1000..1000/1"]);
    assert_eq!(code, 0, "{err}");
    assert!(map.contains("? (") && map.contains("of the cells): up to") && map.contains("calls"), "{map}");
    let (_, csv, _) =
        lab(&["--x", "utilisation=0.5..20000/3", "--y", "trigger_ms=1000..1000/1", "--format", "csv"]);
    let header = csv.lines().find(|l| l.starts_with("cell,")).unwrap();
    assert!(header.ends_with(",why"), "{header}");
    let error = csv.lines().find(|l| l.contains(",error,")).expect("an error row");
    assert!(!error.contains("TooMuchWork {") && error.contains("\"up to "), "{error}");
    // The same words as the map's line: one text for why a cell did not run.
    let said = map.lines().find_map(|l| l.split_once("of the cells): ")).map(|(_, why)| why).unwrap();
    assert!(error.ends_with(&format!("\"{}\"", said.replace('"', "\"\""))), "{error} vs {said}");
    // Every row has the header's columns (the reason is quoted: it has commas).
    assert!(csv.lines().filter(|l| !l.starts_with('#')).all(|l| !l.contains("TooMuchWork")), "{csv}");
}
