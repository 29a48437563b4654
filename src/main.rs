//! The web app's entry point. Trunk builds it for wasm32; natively it only says so.

#[cfg(target_arch = "wasm32")]
fn main() {
    resilience_lab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "resilience-lab is the web app, built for wasm32 by Trunk: run `make serve`.\n\
         The native command line is `cargo run --release --bin lab -- presets`."
    );
}
