use super::*;
use crate::model::chain::run_with;
use crate::scenario::presets;

fn storm(seed: Option<u64>) -> Provenance {
    Provenance {
        page: "storm".into(),
        preset: "chain-3x3".into(),
        seed,
        link: "https://x.test/lab/?page=storm&preset=chain-3x3&seed=7".into(),
        side: None,
    }
}

/// A 1×1 PNG: signature, IHDR, an (empty) IDAT and IEND, with real CRCs.
fn tiny_png() -> Vec<u8> {
    let mut png = PNG_SIGNATURE.to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        png.extend((data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        png.extend_from_slice(&body);
        png.extend(crc32(&body).to_be_bytes());
    };
    chunk(b"IHDR", &[0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
    chunk(b"IDAT", &[]);
    chunk(b"IEND", &[]);
    png
}

#[test]
fn file_names_carry_version_preset_and_seed() {
    assert_eq!(
        storm(Some(7)).file_name(None, ".json"),
        format!("resilience-lab-{VERSION}-chain-3x3-seed7.json")
    );
    assert_eq!(
        storm(Some(7)).file_name(Some("chart-load"), "@2x.png"),
        format!("resilience-lab-{VERSION}-chain-3x3-seed7-chart-load@2x.png")
    );
    let lab = Provenance {
        page: "admission".into(),
        preset: "source-002".into(),
        seed: Some(1),
        link: String::new(),
        side: None,
    };
    assert_eq!(lab.stem(), format!("resilience-lab-{VERSION}-admission-source-002-seed1"));
    let calc = Provenance {
        page: "calculator".into(),
        preset: String::new(),
        seed: None,
        link: String::new(),
        side: None,
    };
    assert_eq!(calc.stem(), format!("resilience-lab-{VERSION}-calculator"));
    // Nothing from a link reaches a file name unfiltered.
    let odd = Provenance {
        page: "storm".into(),
        preset: "../a b/中".into(),
        seed: None,
        link: String::new(),
        side: None,
    };
    assert_eq!(odd.stem(), format!("resilience-lab-{VERSION}-..-a-b--"));
    assert_eq!(safe_name(&"x".repeat(500)).len(), 60);
}

#[test]
fn csv_comments_name_the_source_on_comment_lines_only() {
    let mut p = storm(Some(7));
    p.link.push_str("\n,evil");
    let c = p.csv_comments();
    assert!(c.lines().all(|l| l.starts_with("# ")), "{c}");
    assert!(c.contains("# seed: 7\n") && c.contains("# preset: chain-3x3\n"));
    assert!(c.contains(&format!("# generator: resilience-lab {VERSION}\n")));
    assert!(c.contains("seed=7 ,evil"), "a line break in the link is flattened: {c}");
    assert!(!storm(None).csv_comments().contains("seed:"));
    assert!(Provenance { link: "中".into(), ..storm(None) }.ascii_text().is_ascii());
    assert!(!c.contains("side:"), "outside compare mode no side is named");
    let b = Provenance { side: Some("B"), ..storm(Some(7)) }.csv_comments();
    assert!(b.contains("# side: B of compare mode\n"), "{b}");
}

#[test]
fn series_csv_has_a_header_and_a_row_per_bucket() {
    let p = presets::find("chain-3x3").expect("preset");
    let r = run_with(&(p.build)(), 3, f64::INFINITY).expect("runs");
    let csv = series_csv(&r);
    assert!(csv.starts_with("# bucket_ms="), "the units line first: {}", &csv[..80]);
    let lines: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), r.series.buckets + 1);
    let cols = lines[0].split(',').count();
    assert_eq!(cols, 2 + 3 * r.hops.len() + 5);
    assert!(lines.iter().all(|l| l.split(',').count() == cols));
    let offered: u64 = lines[1..].iter().map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(offered, r.summary.original_requests);
    assert!(report_json(&r, None, Default::default()).ends_with("}\n"));
}

#[test]
fn series_csv_survives_a_short_series() {
    let p = presets::find("chain-2x3").expect("preset");
    let mut r = run_with(&(p.build)(), 1, f64::INFINITY).expect("runs");
    r.series.offered.clear();
    r.series.attempts.clear();
    let csv = series_csv(&r);
    assert_eq!(csv.lines().count(), r.series.buckets + 2, "missing values read as 0, not a panic");
}

#[test]
fn csv_fields_quote_only_when_needed() {
    assert_eq!(csv_field("plain"), "plain");
    assert_eq!(csv_field("a,b"), "\"a,b\"");
    assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

#[test]
fn lab_tables_have_a_row_per_step_or_call() {
    let st = crate::state::admission::AdmissionState::new("source-003");
    let csv = admission_csv(&st.run);
    assert_eq!(csv.lines().count(), st.run.steps.len() + 1);
    assert_eq!(csv.matches(",rejected,rate_limit,1000,").count(), 3, "{csv}");
    assert_eq!(csv.matches(",admitted,").count(), 5);
    // Arrivals and calls numbered from 1, as the pages number them.
    assert!(csv.lines().nth(1).is_some_and(|l| l.starts_with("0,arrival,1,admitted,")), "{csv}");

    let input = crate::model::breaker_lab::preset("source-003").expect("preset");
    let run = crate::model::breaker_lab::run(&input).expect("runs");
    let csv = breaker_csv(&run);
    assert_eq!(csv.lines().count(), run.calls.len() + 1);
    assert!(csv.contains(",OPEN,"), "source-003 opens the breaker");
    assert!(csv.lines().nth(1).is_some_and(|l| l.starts_with("1,")), "{csv}");
    assert!(csv.lines().last().is_some_and(|l| l.starts_with(&format!("{},", run.calls.len()))), "{csv}");

    let out = crate::model::amplification::compute(&crate::model::amplification::CalcInput::default())
        .expect("the example computes");
    let csv = calculator_csv(&out);
    // Header, 4 rates, a rate per level, 3 rows per in-flight case, the payload.
    assert_eq!(csv.lines().count(), 1 + 4 + out.rate_per_level.len() + 4 * 3 + 1);
    assert!(csv.contains("\nworst_case_downstream_attempts,4500,attempts/s\n"), "{csv}");
    assert!(csv.contains("\nin_flight_slow_downstream_amplified,3600,connections\n"), "{csv}");
    assert!(csv.contains("\nlevel_2_rate,4500,attempts/s\n"), "{csv}");
}

#[test]
fn lab_json_numbers_from_1_as_the_csv_and_names_its_counts() {
    let st = crate::state::admission::AdmissionState::new("source-003");
    let v: serde_json::Value =
        serde_json::from_str(&admission_json(&storm(None), &st.input.arrivals, &st.run)).expect("valid JSON");
    let r = &v["result"];
    assert_eq!(r["arrivals"][0]["arrival"], 1);
    assert_eq!(r["rejected"]["rate_limit"], 3, "{}", r["rejected"]);
    let steps = r["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), st.run.steps.len());
    // Row for row what the CSV says, from the same rows.
    let csv = admission_csv(&st.run);
    for (step, line) in steps.iter().zip(csv.lines().skip(1)) {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!(step["arrival"].to_string(), if cols[2].is_empty() { "null" } else { cols[2] }, "{line}");
        assert_eq!(step["event"], cols[1], "{line}");
        assert_eq!(step["credits_after"].to_string(), cols[7], "{line}");
    }
    assert!(steps.iter().any(|s| s["event"] == "completion" && s["arrival"] == 1), "completions by number");

    let input = crate::model::breaker_lab::preset("source-003").expect("preset");
    let run = crate::model::breaker_lab::run(&input).expect("runs");
    let v: serde_json::Value = serde_json::from_str(&breaker_json(&storm(None), &run)).expect("valid JSON");
    let r = &v["result"];
    assert_eq!(r["calls"][0]["call"], 1);
    assert_eq!(r["calls"].as_array().map(Vec::len), Some(run.calls.len()));
    let recorded = r["recorded_order"].as_array().expect("recorded");
    assert_eq!(recorded.len(), run.records.len());
    assert!(recorded.iter().all(|k| (1..=run.calls.len() as u64).contains(&k.as_u64().unwrap_or(0))));
    assert_eq!(r["changes"][0]["cause"], "rates", "{}", r["changes"][0]);
    assert_eq!(r["changes"][0]["to"], "OPEN");
    assert!(
        r["changes"]
            .as_array()
            .expect("changes")
            .iter()
            .any(|c| c["cause"] == "waited" && c["timed"].is_boolean())
    );
}

#[test]
fn lab_json_wraps_the_result_with_its_provenance() {
    let j = lab_json(&storm(Some(7)), &serde_json::json!({"x": 1}));
    let v: serde_json::Value = serde_json::from_str(&j).expect("valid JSON");
    assert_eq!(v["seed"], 7);
    assert_eq!(v["result"]["x"], 1);
    assert_eq!(v["link"], storm(None).link);
}

#[test]
fn crc32_matches_the_standard_check_value() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
    assert_eq!(crc32(b"IEND"), 0xAE42_6082);
}

#[test]
fn png_text_goes_after_the_header_and_reads_back() {
    let png = tiny_png();
    assert!(png_texts(&png).is_empty());
    let out = png_with_text(&png, "resilience-lab", "seed: 7\nlink: ?a=1&b=中").expect("a PNG");
    assert_eq!(&out[..33], &png[..33], "signature and IHDR unchanged");
    assert_eq!(&out[37..41], b"tEXt");
    assert_eq!(&out[out.len() - 12..], &png[png.len() - 12..], "IEND still last");
    assert_eq!(png_texts(&out), vec![("resilience-lab".to_string(), "seed: 7\nlink: ?a=1&b=?".to_string())]);
    // A corrupted chunk is not read back.
    let mut bad = out.clone();
    bad[45] ^= 1;
    assert!(png_texts(&bad).is_empty());
}

#[test]
fn png_text_refuses_what_is_not_a_png() {
    assert_eq!(png_with_text(b"GIF89a", "k", "v"), None);
    assert_eq!(png_with_text(&tiny_png()[..20], "k", "v"), None);
    assert_eq!(png_with_text(&tiny_png(), "", "v"), None);
    assert_eq!(png_with_text(&tiny_png(), &"k".repeat(80), "v"), None);
    assert!(
        png_texts(b"\x89PNG\r\n\x1a\n\0\0\xff\xffIDAT").is_empty(),
        "a length past the end stops the reader"
    );
}

#[test]
fn embed_links_set_and_clear_compact_mode() {
    let href = "http://h.test/sub/?page=storm&preset=chain-3x3&lang=zh#main";
    assert_eq!(embed_url(href), "http://h.test/sub/?page=storm&preset=chain-3x3&lang=zh&embed=1");
    assert_eq!(full_page_url(&embed_url(href)), "http://h.test/sub/?page=storm&preset=chain-3x3&lang=zh");
    assert_eq!(embed_url("http://h.test/"), "http://h.test/?embed=1");
    assert_eq!(embed_url("http://h.test/?embed=0&embed=1"), "http://h.test/?embed=1");
    let s = embed_snippet(href, "Retry \"storm\" <lab>");
    assert!(
        s.starts_with(
            "<iframe src=\"http://h.test/sub/?page=storm&amp;preset=chain-3x3&amp;lang=zh&amp;embed=1\""
        ),
        "{s}"
    );
    assert!(s.contains("title=\"Retry &quot;storm&quot; &lt;lab&gt;\""));
    assert!(s.ends_with("></iframe>"));
}

#[test]
fn xml_escape_covers_markup_characters() {
    assert_eq!(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
}

#[test]
fn only_an_alpha_of_zero_makes_a_colour_clear() {
    for clear in ["", "transparent", "rgba(0, 0, 0, 0)", "rgba(255, 255, 255, 0)"] {
        assert!(is_clear_colour(clear), "{clear:?}");
    }
    // A colour whose blue is 0 is still a colour (the degraded outcome's gold had been
    // exported as the muted grey for it).
    for colour in
        ["rgb(194, 136, 0)", "rgb(0, 0, 0)", "rgba(194, 136, 0, 0.5)", "rgba(1, 2, 3, 1)", "#1b2733"]
    {
        assert!(!is_clear_colour(colour), "{colour:?}");
    }
}
