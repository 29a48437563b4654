//! Browser tests (wasm-bindgen-test in headless Chromium): mount components into a fresh
//! element, flush Yew's scheduler, and assert on the DOM.
#![cfg(target_arch = "wasm32")]

mod common;

use resilience_lab::i18n::Lang;
use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, run_with};
use resilience_lab::scenario::presets;
use resilience_lab::state::calculator::{CalcAction, CalcState};
use resilience_lab::ui::calculator::CalculatorPage;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

fn mount_point() -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    div
}

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
        .text_content()
        .unwrap_or_default()
}

#[derive(Clone, PartialEq)]
struct Store(CalcState);

impl Reducible for Store {
    type Action = CalcAction;
    fn reduce(self: Rc<Self>, action: CalcAction) -> Rc<Self> {
        Rc::new(Store(self.0.reduce(action)))
    }
}

#[derive(Properties, PartialEq)]
struct HarnessProps {
    lang: Lang,
}

#[function_component]
fn Harness(props: &HarnessProps) -> Html {
    let store = use_reducer(|| Store(CalcState::default()));
    let s = store.clone();
    html! {
        <CalculatorPage lang={props.lang} state={store.0.clone()}
            dispatch={Callback::from(move |a: CalcAction| s.dispatch(a))} />
    }
}

/// Types `value` into the number field `id` and commits it, as a user pressing Enter does.
fn type_into(root: &Element, id: &str, value: &str) {
    let input: HtmlInputElement =
        root.query_selector(&format!("#{id}")).unwrap().unwrap().dyn_into().unwrap();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    input.dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn calculator_opens_on_source_000_figures() {
    let root = mount_point();
    yew::Renderer::<Harness>::with_root_and_props(root.clone(), HarnessProps { lang: Lang::En }).render();
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "#out-avg .value"), "100");
    assert_eq!(text(&root, "#out-peak .value"), "500");
    assert_eq!(text(&root, "#out-worst .value"), "4,500");
    assert_eq!(text(&root, "#out-payload .value"), "4.10");
    assert_eq!(text(&root, "#inflight-degraded-after .value"), "3,600");
    assert!(root.query_selector("#saturation-warning").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn typing_attempts_updates_the_worst_case_and_bad_values_show_an_error() {
    let root = mount_point();
    yew::Renderer::<Harness>::with_root_and_props(root.clone(), HarnessProps { lang: Lang::En }).render();
    yew::scheduler::flush().await;
    type_into(&root, "f-attempts-1", "4");
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "#out-worst .value"), "6,000");
    type_into(&root, "f-attempts-1", "99");
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "#out-worst .value"), "6,000", "the last valid result stays");
    let err = text(&root, "#f-attempts-1-error");
    assert!(err.contains("99") && err.contains("1") && err.contains("10"), "{err}");
}

#[wasm_bindgen_test]
async fn calculator_speaks_chinese() {
    let root = mount_point();
    yew::Renderer::<Harness>::with_root_and_props(root.clone(), HarnessProps { lang: Lang::Zh }).render();
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "#page-title"), "重试放大与在途量计算器");
    assert!(text(&root, "#out-worst").contains("下游尝试次数上界"));
}

/// The browser computes the same bytes as the native build (see tests/determinism.rs).
#[wasm_bindgen_test]
fn reports_match_the_native_digests() {
    for &(name, seed, want) in common::DIGESTS {
        let s = (presets::find(name).unwrap().build)();
        let json = run_with(&s, seed, DEFAULT_MAX_CALLS).unwrap().to_json();
        assert_eq!(common::digest(&json), want, "{name} seed {seed}");
    }
}
