#![cfg(not(target_arch = "wasm32"))]
#[path = "common/random.rs"]
mod random;
use resilience_lab::scenario::validate;
#[test]
fn dump() {
    let Ok(dir) = std::env::var("CORPUS_DIR") else { return };
    let n: u64 = std::env::var("CORPUS_N").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let mut bad = 0;
    for i in 0..n {
        let s = random::scenario(i);
        if let Err(e) = validate(&s) {
            bad += 1;
            eprintln!("{i}: {e}");
            continue;
        }
        std::fs::write(format!("{dir}/{i:05}.json"), serde_json::to_string(&s).unwrap()).unwrap();
    }
    assert_eq!(bad, 0);
}
