//! The README states what the code decides, once: each check reads the README and compares
//! it with the value the code uses.

use resilience_lab::policy::stack::{DEFAULT_ORDER, Stage, describe};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// Every `code span` in the README that is an order of stages (`a → b → …`, every word a
/// stage name).
fn stated_orders(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.contains(" → "))
        .filter(|span| span.split(" → ").all(|w| Stage::from_name(w.trim()).is_some()))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_states_the_default_stack_once_and_as_the_engine_runs_it() {
    let orders = stated_orders(&readme());
    assert_eq!(
        orders,
        vec![describe(&DEFAULT_ORDER)],
        "exactly one statement of the order, equal to the code's"
    );
}

#[test]
fn an_order_in_the_readme_is_recognised() {
    // The check above could pass by finding nothing; make sure it can see a wrong order.
    let wrong = "text `retry → breaker → deadline` and `a → b` and `retry`";
    assert_eq!(stated_orders(wrong), vec!["retry → breaker → deadline".to_string()]);
}
