//! The cause breakdown of a run: the request flow (requests → outcome → cause) as a
//! Sankey-style picture, then per hop the results of its calls and its callers' refusals
//! as stacked bars. Arithmetic, layout and markup are `plot::breakdown`'s (pure, tested
//! natively); every count carries its exact value in `data-value`, as the headline figures
//! do. The markup is drawn once per report and language.

use crate::i18n::Lang;
use crate::plot::breakdown::markup;
use crate::ui::charts::ReportRef;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BreakdownProps {
    /// The page's language.
    pub lang: Lang,
    /// The run to break down.
    pub report: ReportRef,
    /// "a" or "b", for unique ids in compare mode.
    pub side: &'static str,
}

/// Where the requests went, and per hop how the calls ended. Its name starts with its side's
/// heading in compare mode (`lower-title-a`, absent otherwise), so the two sides' regions differ.
#[component]
pub fn Breakdown(props: &BreakdownProps) -> Html {
    let side = props.side;
    let html = use_memo((props.report.clone(), props.lang), move |(r, lang)| {
        AttrValue::from(markup(*lang, &r.0, side))
    });
    html! {
        <section class="breakdown" id={format!("breakdown-{side}")} aria-labelledby={format!("lower-title-{side} bd-title-{side}")}>
            { Html::from_html_unchecked((*html).clone()) }
        </section>
    }
}
