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
/// Texts whose nearest `f64` is hard to get right: exact halfway cases (ties to even), the
/// subnormal edges, the largest finite, long digit strings.
const HARD_DECIMALS: &[&str] = &[
    "9007199254740993",
    "9007199254740995",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "1.00000000000000011102230246251565404236316680908203126",
    "2.2250738585072011e-308",
    "2.2250738585072012e-308",
    "2.4703282292062327e-324",
    "2.4703282292062328e-324",
    "4.9406564584124654e-324",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "1.7976931348623159e308",
    "8.988465674311579e+307",
    "7.038531e-26",
    "0.1",
    "123456789012345678901234567890123456789e-20",
    "-0",
    "-0.0e-5",
    ".5",
    "5.",
    "+1E+5",
    "1e400",
    "1e-400",
];

/// Every number a field, a link or a typed value holds is read by JavaScript's `parseFloat`
/// in the page (`float::parse_f64`) and by `std` natively: the same bits for hard cases and
/// thousands of generated texts, so a link gives the same run on both.
#[wasm_bindgen_test]
fn decimal_numbers_read_as_natively() {
    use resilience_lab::float::parse_f64;
    let same = |s: &str| {
        assert_eq!(parse_f64(s).map(f64::to_bits), s.parse::<f64>().ok().map(f64::to_bits), "{s:?}");
    };
    HARD_DECIMALS.iter().for_each(|s| same(s));
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        x >> 11
    };
    for _ in 0..4000 {
        // A random double written shortest, with 17 to 40 digits, and with one digit changed.
        let v = f64::from_bits(next() << 11 | next() & 0x7ff);
        if !v.is_finite() {
            continue;
        }
        same(&format!("{v:e}"));
        let digits = 16 + (next() % 24) as usize;
        let long = format!("{v:.digits$e}");
        same(&long);
        let (mantissa, exp) = long.split_once('e').unwrap();
        let bumped: String = mantissa
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i == mantissa.len() - 1 && c.is_ascii_digit() {
                    (b'0' + (next() % 10) as u8) as char
                } else {
                    c
                }
            })
            .collect();
        same(&format!("{bumped}e{exp}"));
        // Plain decimals as a learner types them.
        let n = next() % 1_000_000;
        same(&format!("{}.{:03}", n, next() % 1000));
    }
    // Not numbers, by the same grammar.
    for s in ["", "1e", ".", "1_0", "0x10", " 1", "infinit", "1.2.3"] {
        same(s);
    }
}

#[wasm_bindgen_test]
fn reports_match_the_native_digests() {
    for &(name, seed, want) in common::DIGESTS {
        let s = (presets::find(name).unwrap().build)();
        let json = run_with(&s, seed, DEFAULT_MAX_CALLS).unwrap().to_json();
        assert_eq!(common::digest(&json), want, "{name} seed {seed}");
    }
}

// ---- retry-storm page components ----------------------------------------------------

use resilience_lab::state::storm::{StormAction, StormState};
use resilience_lab::ui::charts::ReportRef;
use resilience_lab::ui::storm::StormPage;
use resilience_lab::ui::storm::figures::{Baseline, HeadlineTable};
use resilience_lab::ui::storm::timeline::Timeline;

#[derive(Clone, PartialEq)]
struct StormStore(StormState);

impl Reducible for StormStore {
    type Action = StormAction;
    fn reduce(self: Rc<Self>, action: StormAction) -> Rc<Self> {
        Rc::new(StormStore(self.0.reduce(action)))
    }
}

#[derive(Properties, PartialEq)]
struct StormHarnessProps {
    preset: &'static str,
}

#[function_component]
fn StormHarness(props: &StormHarnessProps) -> Html {
    let preset = props.preset;
    let store = use_reducer(move || StormStore(StormState::new(preset)));
    let s = store.clone();
    html! {
        <StormPage lang={Lang::En} state={store.0.clone()} dispatch={Callback::from(move |a: StormAction| s.dispatch(a))} />
    }
}

/// The number of finished runs the storm page has drawn (`data-run` on `#storm`), 0 before.
fn runs_drawn(root: &Element) -> u64 {
    root.query_selector("#storm")
        .unwrap()
        .and_then(|el| el.get_attribute("data-run"))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Waits until the storm page has drawn a run newer than `after` and returns its number;
/// fails the test after 10 s, so a run that never finishes (or never redraws) is a failure.
async fn settle(root: &Element, after: u64) -> u64 {
    for _ in 0..1000 {
        yew::scheduler::flush().await;
        let now = runs_drawn(root);
        if now > after {
            return now;
        }
        gloo_timers_sleep(10).await;
    }
    panic!("no run newer than {after} was drawn within 10 s");
}

/// Lets effects and renders that start no run (an invalid value) take place.
async fn flush_renders() {
    for _ in 0..5 {
        yew::scheduler::flush().await;
        gloo_timers_sleep(10).await;
    }
}

async fn gloo_timers_sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().unwrap();
        window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn value(root: &Element, id: &str) -> f64 {
    root.query_selector(&format!("#{id}"))
        .unwrap()
        .unwrap_or_else(|| panic!("#{id} not found"))
        .get_attribute("data-value")
        .unwrap()
        .parse()
        .unwrap()
}

#[wasm_bindgen_test]
async fn storm_page_mounts_runs_and_reruns_on_a_change() {
    let root = mount_point();
    yew::Renderer::<StormHarness>::with_root_and_props(
        root.clone(),
        StormHarnessProps { preset: "chain-3x3" },
    )
    .render();
    let first = settle(&root, 0).await;
    assert_eq!(value(&root, "h-a-amplification"), 27.0);
    assert_eq!(value(&root, "h-a-downstream_attempts"), 27_000.0);
    assert!(root.query_selector(".diagram svg").unwrap().is_some(), "the diagram is drawn");
    assert!(root.query_selector("#load-a path.series").unwrap().is_some(), "the load chart is drawn");
    type_into(&root, "k-l1-attempts", "2");
    let second = settle(&root, first).await;
    assert_eq!(value(&root, "h-a-amplification"), 18.0, "2 × 3 × 3");
    type_into(&root, "k-l1-attempts", "12");
    flush_renders().await;
    assert_eq!(runs_drawn(&root), second, "an invalid value starts no run");
    let err = text(&root, "#k-l1-attempts-error");
    assert!(err.contains("l1.attempts") && err.contains("12"), "{err}");
    assert_eq!(value(&root, "h-a-amplification"), 18.0, "the last valid run stays");
}

/// Side A unprotected and side B protected big-promo, as the headline cards, mounted.
async fn mount_big_promo_headline(
    lang: Lang,
    baseline: Baseline,
) -> (Element, Rc<resilience_lab::report::Report>, Rc<resilience_lab::report::Report>) {
    let a = Rc::new(run_with(&presets::big_promo(), 1, DEFAULT_MAX_CALLS).unwrap());
    let b = Rc::new(run_with(&presets::big_promo_protected(), 1, DEFAULT_MAX_CALLS).unwrap());
    #[derive(Properties, PartialEq)]
    struct P {
        a: ReportRef,
        b: ReportRef,
        lang: Lang,
        baseline: Baseline,
    }
    #[function_component]
    fn H(p: &P) -> Html {
        html! { <HeadlineTable lang={p.lang} a={p.a.clone()} b={Some(p.b.clone())} baseline={p.baseline}
        slo={resilience_lab::model::slo::Slo::default()} /> }
    }
    let root = mount_point();
    yew::Renderer::<H>::with_root_and_props(
        root.clone(),
        P { a: ReportRef(a.clone()), b: ReportRef(b.clone()), lang, baseline },
    )
    .render();
    yew::scheduler::flush().await;
    (root, a, b)
}

#[wasm_bindgen_test]
async fn headline_table_shows_both_sides_and_the_difference() {
    let (root, a, b) = mount_big_promo_headline(Lang::Zh, Baseline::A).await;
    assert_eq!(value(&root, "h-a-core_success_rate"), a.summary.core_success_rate);
    assert_eq!(value(&root, "h-b-core_success_rate"), b.summary.core_success_rate);
    let diff = root.query_selector("#h-d-core_success_rate").unwrap().unwrap();
    assert!(diff.class_name().contains("better"), "protected is better: {}", diff.class_name());
    assert!(text(&root, ".hcard").contains("原始请求"), "Chinese labels");
    assert!(text(&root, "#headline").contains("B − A"), "side B a variant: B − A");
}

#[wasm_bindgen_test]
async fn headline_difference_is_a_less_b_when_b_is_the_pinned_baseline() {
    // Pinned: B holds the settings before the change, A the change (here the protection
    // taken off): the difference says what the change did, A − B, and it made things worse.
    let (root, a, b) = mount_big_promo_headline(Lang::En, Baseline::B).await;
    let diff = root.query_selector("#h-d-core_success_rate").unwrap().unwrap();
    assert!(
        diff.class_name().contains("worse"),
        "unprotected A is worse than pinned B: {}",
        diff.class_name()
    );
    let pp = (a.summary.core_success_rate - b.summary.core_success_rate) * 100.0;
    assert!(pp < -1.0, "the runs differ: {pp}");
    let shown = text(&root, "#h-d-core_success_rate");
    assert!(shown.starts_with("(−") || shown.starts_with("(-"), "A − B is negative: {shown}");
    assert!(text(&root, "#headline").contains("A − B"), "the key says A − B");
}

#[wasm_bindgen_test]
async fn timeline_draws_a_lane_per_hop_and_the_deadline() {
    let r = Rc::new(run_with(&presets::lab11_protected(), 1, DEFAULT_MAX_CALLS).unwrap());
    let idx =
        r.traces.iter().position(|t| t.outcome == resilience_lab::report::RequestOutcome::Degraded).unwrap();
    #[derive(Properties, PartialEq)]
    struct P {
        r: ReportRef,
        i: usize,
    }
    #[function_component]
    fn H(p: &P) -> Html {
        html! { <Timeline lang={Lang::En} report={p.r.clone()} index={p.i} onselect={Callback::noop()} /> }
    }
    let root = mount_point();
    yew::Renderer::<H>::with_root_and_props(root.clone(), P { r: ReportRef(r.clone()), i: idx }).render();
    yew::scheduler::flush().await;
    assert_eq!(root.query_selector_all(".lane").unwrap().length(), 3, "page, recommendation, profile");
    assert!(root.query_selector(".deadline").unwrap().is_some());
    assert_eq!(root.query_selector_all(".mark.backoff").unwrap().length(), 1, "one 20 ms backoff");
    assert!(text(&root, "#trace-label").contains("degraded, 220\u{a0}ms"), "{}", text(&root, "#trace-label"));
}

/// The badges of each hop, read from the DOM: their `data-stage` names in drawn order.
fn badge_order(root: &Element, hop: usize) -> Vec<String> {
    let list = root.query_selector_all(&format!("#hop-a-{hop} .badge")).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()?.get_attribute("data-stage"))
        .collect()
}

async fn draw_diagram(
    s: resilience_lab::scenario::Scenario,
) -> (Element, Rc<resilience_lab::report::Report>) {
    use resilience_lab::ui::storm::diagram::Diagram;
    #[derive(Properties, PartialEq)]
    struct P {
        r: ReportRef,
        s: resilience_lab::scenario::Scenario,
    }
    #[function_component]
    fn H(p: &P) -> Html {
        html! { <Diagram lang={Lang::En} report={p.r.clone()} scenario={p.s.clone()} at_ms={0.0} side="a" /> }
    }
    let r = Rc::new(run_with(&s, 1, DEFAULT_MAX_CALLS).unwrap());
    let root = mount_point();
    yew::Renderer::<H>::with_root_and_props(root.clone(), P { r: ReportRef(r.clone()), s }).render();
    yew::scheduler::flush().await;
    (root, r)
}

/// Checks that every hop's badges, admission and fallback aside, are its stack towards the
/// next hop in the report's order, and a side dependency's its caller's stack towards it.
fn assert_badges_follow_the_report(root: &Element, r: &resilience_lab::report::Report) {
    use resilience_lab::report::HopKind;
    for hop in 0..r.hops.len() {
        let drawn: Vec<String> =
            badge_order(root, hop).into_iter().filter(|b| b != "admission" && b != "fallback").collect();
        let side = r.hops[hop].kind == HopKind::Side;
        let ran: Vec<String> = r
            .clients
            .iter()
            .find(|c| if side { c.callee == hop } else { c.caller == hop && c.callee == hop + 1 })
            .map(|c| c.stack.iter().map(|s| s.name().to_string()).collect())
            .unwrap_or_default();
        assert_eq!(drawn, ran, "hop {hop}: the diagram draws the order the engine ran");
    }
}

#[wasm_bindgen_test]
async fn diagram_badges_are_the_reports_stack_in_order() {
    let (root, r) = draw_diagram(presets::big_promo_protected()).await;
    assert_badges_follow_the_report(&root, &r);
    let entry = badge_order(&root, 0);
    assert_eq!(entry.first().map(String::as_str), Some("admission"), "the rate limit comes first: {entry:?}");
    assert!(entry.len() > 2, "the app's stack is drawn: {entry:?}");
    let note = text(&root, "#order-a");
    assert!(note.contains("retry → deadline") || note.contains("retry → retry budget"), "{note}");
    // A side dependency's box has its caller's stack towards it, as the note says it.
    assert!(note.contains("product → recommendations: breaker → timeout → bulkhead → call"), "{note}");
    assert!(note.contains("app: admission on arrival"), "{note}");
    let rec = r.hops.iter().position(|h| h.name == "recommendations").unwrap();
    assert_eq!(
        badge_order(&root, rec),
        ["breaker", "timeout", "bulkhead", "fallback"],
        "recommendations' box"
    );
    assert!(text(&root, &format!("#hop-a-{rec}")).contains("product calls it with:"));
    // The product service's fallback is recommendations', not its orders': it is drawn in
    // recommendations' box, not in product's.
    let fallback = root
        .query_selector(&format!("#hop-a-{rec} .badge[data-stage='fallback']"))
        .unwrap()
        .and_then(|b| b.get_attribute("data-tip"));
    assert_eq!(fallback.as_deref(), Some("fallback for recommendations"), "the fallback's dependency");
    assert!(!badge_order(&root, 1).contains(&"fallback".to_string()), "{:?}", badge_order(&root, 1));
    // A side call that retries carries its tries in its box and its own ratio on its arrow.
    let mut s = presets::big_promo_protected();
    s.layers[1].side_deps[0].client.retry.max_attempts = 3;
    let (root, r) = draw_diagram(s).await;
    let ci = r.clients.iter().position(|c| c.callee == rec).unwrap();
    assert_badges_follow_the_report(&root, &r);
    assert_eq!(badge_order(&root, rec).first().map(String::as_str), Some("retry"));
    assert!(
        text(&root, &format!("#hop-a-{rec}")).contains("tries ×3"),
        "{}",
        text(&root, &format!("#hop-a-{rec}"))
    );
    assert!(root.query_selector(&format!("#ratio-a-{ci}")).unwrap().is_some(), "the side arrow's ratio");

    // Reorder a stack in the scenario: the diagram follows the engine, not its own text.
    use resilience_lab::policy::stack::Stage::*;
    let mut s = presets::big_promo_protected();
    s.layers[0].client.stack = Some(vec![Retry, Bulkhead, Timeout, Breaker, RetryBudget, Deadline]);
    let (root, r) = draw_diagram(s).await;
    assert_badges_follow_the_report(&root, &r);
    let stack = &r.clients.iter().find(|c| c.caller == 0).unwrap().stack;
    assert!(stack.iter().position(|s| *s == Timeout) < stack.iter().position(|s| *s == RetryBudget));
    assert!(text(&root, "#order-a").contains("timeout → retry budget"), "{}", text(&root, "#order-a"));

    // Unprotected, the product service's two calls share its pool: the note says "shared
    // pool" as their badges do, not "bulkhead".
    let (root, _) = draw_diagram(presets::big_promo()).await;
    let note = text(&root, "#order-a");
    assert!(note.contains("product → order-core: shared pool → call"), "{note}");
    assert!(!note.contains("bulkhead"), "{note}");
}

#[wasm_bindgen_test]
async fn a_value_typed_past_its_sliders_span_puts_the_thumb_on_its_own_stop() {
    // breaker-demo judges at 50 % failed; 0.5 % is accepted and below the slider's 1–100.
    use resilience_lab::state::storm::{StormAction, StormKey, Target, number};
    use resilience_lab::ui::controls::{ControlSpec, NumberControl};
    let knob = &number("failure_pct").unwrap().knob;
    let st = StormState::new("breaker-demo")
        .reduce(StormAction::Type(StormKey::on("failure_pct", Target::Layer(0)), "0.5".into()));
    let spec =
        ControlSpec::from_knob(Lang::En, knob, Target::Layer(0), &st.a, None, "fp".into(), "Failure".into());
    #[derive(Properties, PartialEq)]
    struct P {
        spec: ControlSpec,
    }
    #[function_component]
    fn H(p: &P) -> Html {
        html! { <NumberControl spec={p.spec.clone()} ontype={Callback::noop()} onslide={Callback::noop()} /> }
    }
    let root = mount_point();
    yew::Renderer::<H>::with_root_and_props(root.clone(), P { spec }).render();
    yew::scheduler::flush().await;
    let slider: HtmlInputElement = root.query_selector("#fp-slider").unwrap().unwrap().dyn_into().unwrap();
    assert_eq!(slider.value(), "0", "the thumb on the value's own stop, not on 1 %");
    assert_eq!(slider.max(), (knob.stops().len()).to_string(), "one stop more than the span's");
    assert_eq!(slider.get_attribute("aria-valuetext").as_deref(), Some("0.5 %"));
}

#[wasm_bindgen_test]
async fn the_diagram_says_a_fault_in_force_and_what_each_badge_does() {
    use resilience_lab::ui::storm::diagram::Diagram;
    #[derive(Properties, PartialEq)]
    struct P {
        r: ReportRef,
        s: resilience_lab::scenario::Scenario,
        at: f64,
    }
    #[function_component]
    fn H(p: &P) -> Html {
        html! { <Diagram lang={Lang::En} report={p.r.clone()} scenario={p.s.clone()} at_ms={p.at} side="a" /> }
    }
    let s = presets::breaker_demo();
    let f = s.faults[0].clone();
    let r = Rc::new(run_with(&s, 1, DEFAULT_MAX_CALLS).unwrap());
    let leaf = r.hops.iter().position(|h| h.name == f.target).unwrap();
    let draw = |at: f64| {
        let root = mount_point();
        yew::Renderer::<H>::with_root_and_props(
            root.clone(),
            P { r: ReportRef(r.clone()), s: s.clone(), at },
        )
        .render();
        root
    };
    let inside = draw((f.start_ms + f.end_ms) / 2.0);
    let before = draw(f.start_ms / 2.0);
    yew::scheduler::flush().await;
    let said = text(&inside, &format!("#fault-now-a-{leaf}"));
    assert!(said.contains("down") || said.contains("slower") || said.contains("errors"), "{said}");
    assert!(
        before.query_selector(&format!("#fault-now-a-{leaf}")).unwrap().is_none(),
        "no fault before the window"
    );
    // Every badge of the entry's stack says on hover what it does to its call.
    let tips = inside.query_selector_all("#hop-a-0 .badge").unwrap();
    for i in 0..tips.length() {
        let b: Element = tips.item(i).unwrap().dyn_into().unwrap();
        let tip = b.get_attribute("data-tip").unwrap_or_default();
        assert!(tip.len() > 20, "{:?}: {tip:?}", b.get_attribute("data-stage"));
    }
}
