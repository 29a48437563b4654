//! The app shell: header with the product name and language switch, navigation between
//! labs, the page, and the footer. It owns every page's state so the URL can hold all of it.

use super::admission::AdmissionPage;
use super::breaker::BreakerPage;
use super::browser;
use super::calculator::CalculatorPage;
use super::queue::QueuePage;
use super::storm::StormPage;
use crate::i18n::{Lang, T};
use crate::query::Query;
use crate::state::admission::{AdmissionAction, AdmissionState};
use crate::state::app::{Page, Route, initial_lang};
use crate::state::breaker::{BreakerAction, BreakerState};
use crate::state::calculator::{CalcAction, CalcState};
use crate::state::queue::{QueueAction, QueueState};
use crate::state::storm::{StormAction, StormState};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Which page, which language, and a notice about the link that opened the app.
#[derive(Clone, Debug, PartialEq)]
pub struct Shell {
    pub lang: Lang,
    pub page: Page,
    pub unknown_page: Option<String>,
    pub unknown_lang: Option<String>,
    /// Compact mode (`embed=1`): the figures without the control panel, for an `<iframe>`.
    pub embed: bool,
    /// An `embed=` value that is neither 0 nor 1, to tell the user.
    pub bad_embed: Option<String>,
}

/// What the header and navigation can do.
pub enum ShellAction {
    SetLang(Lang),
    Go(Page),
    DismissNotice,
}

impl Reducible for Shell {
    type Action = ShellAction;
    fn reduce(self: Rc<Self>, action: ShellAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            ShellAction::SetLang(l) => next.lang = l,
            ShellAction::Go(p) => next.page = p,
            ShellAction::DismissNotice => {
                next.unknown_page = None;
                next.unknown_lang = None;
                next.bad_embed = None;
            }
        }
        Rc::new(next)
    }
}

/// Wraps the calculator state for `use_reducer`.
#[derive(Clone, PartialEq)]
pub struct CalcStore(pub CalcState);

impl Reducible for CalcStore {
    type Action = CalcAction;
    fn reduce(self: Rc<Self>, action: CalcAction) -> Rc<Self> {
        Rc::new(CalcStore(self.0.reduce(action)))
    }
}

/// Wraps the retry-storm state for `use_reducer`.
#[derive(Clone, PartialEq)]
pub struct StormStore(pub StormState);

impl Reducible for StormStore {
    type Action = StormAction;
    fn reduce(self: Rc<Self>, action: StormAction) -> Rc<Self> {
        Rc::new(StormStore(self.0.reduce(action)))
    }
}

/// Wraps a lab's state for `use_reducer`.
#[derive(Clone, PartialEq)]
pub struct LabStore<S>(pub S);

impl Reducible for LabStore<AdmissionState> {
    type Action = AdmissionAction;
    fn reduce(self: Rc<Self>, action: AdmissionAction) -> Rc<Self> {
        Rc::new(LabStore(self.0.reduce(action)))
    }
}

impl Reducible for LabStore<BreakerState> {
    type Action = BreakerAction;
    fn reduce(self: Rc<Self>, action: BreakerAction) -> Rc<Self> {
        Rc::new(LabStore(self.0.reduce(action)))
    }
}

impl Reducible for LabStore<QueueState> {
    type Action = QueueAction;
    fn reduce(self: Rc<Self>, action: QueueAction) -> Rc<Self> {
        Rc::new(LabStore(self.0.reduce(action)))
    }
}

/// Every page's state, for writing the open one into the URL.
#[derive(Clone, PartialEq)]
struct Pages {
    calc: CalcState,
    storm: StormState,
    admission: AdmissionState,
    queue: QueueState,
    breaker: BreakerState,
}

/// The open page's link: its whole state (other pages' state stays in memory).
fn page_query(shell: &Shell, p: &Pages) -> Query {
    let mut q = Query::new();
    q.set("page", shell.page.slug());
    q.set("lang", shell.lang.code());
    if shell.embed {
        q.set("embed", "1");
    }
    match shell.page {
        Page::Calculator => p.calc.write_query(&mut q),
        Page::Storm => p.storm.write_query(&mut q),
        Page::Admission => p.admission.write_query(&mut q),
        Page::Queue => p.queue.write_query(&mut q),
        Page::Breaker => p.breaker.write_query(&mut q),
    }
    q
}

#[component]
pub fn App() -> Html {
    let start = use_memo((), |_| browser::current_query());
    let shell = {
        let q = start.clone();
        use_reducer(move || {
            let route = Route::from_query(&q);
            let langs = browser::browser_languages();
            let saved = browser::saved_lang();
            let lang = initial_lang(route.lang, saved.as_deref(), langs.iter().map(String::as_str));
            Shell {
                lang,
                page: route.page,
                unknown_page: route.unknown_page,
                unknown_lang: route.unknown_lang,
                embed: route.embed,
                bad_embed: route.bad_embed,
            }
        })
    };
    let calc = {
        let q = start.clone();
        use_reducer(move || CalcStore(CalcState::from_query(&q)))
    };
    let storm = {
        let q = start.clone();
        use_reducer(move || StormStore(StormState::from_query(&q)))
    };
    let admission = {
        let q = start.clone();
        use_reducer(move || LabStore(AdmissionState::from_query(&q)))
    };
    let queue = {
        let q = start.clone();
        use_reducer(move || LabStore(QueueState::from_query(&q)))
    };
    let breaker = {
        let q = start.clone();
        use_reducer(move || LabStore(BreakerState::from_query(&q)))
    };

    let pages = Pages {
        calc: calc.0.clone(),
        storm: storm.0.clone(),
        admission: admission.0.clone(),
        queue: queue.0.clone(),
        breaker: breaker.0.clone(),
    };
    // Compact mode's way out: this state's link, without `embed`, on the same path.
    let full_page = shell.embed.then(|| {
        let mut q = page_query(&shell, &pages);
        q.remove("embed");
        format!("{}{}", browser::current_path(), q.to_query_string())
    });
    {
        let shell_now = (*shell).clone();
        use_effect_with((shell_now, pages), |(shell, pages)| {
            browser::replace_query(&page_query(shell, pages));
            browser::save_lang(shell.lang.code());
            let title = format!("{} · {}", shell.lang.t(shell.page.label()), shell.lang.t(T::AppName));
            browser::set_document_lang_and_title(shell.lang.html_tag(), &title);
        });
    }

    let lang = shell.lang;
    let t = |k: T| lang.t(k);
    let lang_buttons: Html = Lang::ALL
        .into_iter()
        .map(|l| {
            let s = shell.clone();
            let name = match l {
                Lang::Zh => "中文",
                Lang::En => "English",
            };
            html! {
                <button
                    type="button"
                    id={format!("lang-{}", l.code())}
                    class={classes!("lang", (l == lang).then_some("active"))}
                    aria-pressed={if l == lang { "true" } else { "false" }}
                    lang={l.html_tag()}
                    title={t(T::LanguageSwitchHelp)}
                    onclick={Callback::from(move |_| s.dispatch(ShellAction::SetLang(l)))}
                >{ name }</button>
            }
        })
        .collect();
    let nav: Html = Page::ALL
        .into_iter()
        .map(|p| {
            let s = shell.clone();
            let href = format!("?page={}&lang={}", p.slug(), lang.code());
            let current = p == shell.page;
            html! {
                <a
                    href={href}
                    id={format!("nav-{}", p.slug())}
                    class={classes!("nav-link", current.then_some("active"))}
                    aria-current={if current { Some("page") } else { None }}
                    onclick={Callback::from(move |e: MouseEvent| {
                        if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
                            e.prevent_default();
                            s.dispatch(ShellAction::Go(p));
                        }
                    })}
                >{ t(p.label()) }</a>
            }
        })
        .collect();
    let mut notices: Vec<String> = Vec::new();
    if let Some(p) = &shell.unknown_page {
        notices.push(lang.f(T::PageNotFound, &[("page", p)]));
    }
    if let Some(l) = &shell.unknown_lang {
        notices.push(lang.f(T::LangNotFound, &[("lang", l), ("shown", lang.t(T::LangName))]));
    }
    if let Some(v) = &shell.bad_embed {
        let allowed = crate::error::Allowed::OneOf { choices: vec!["0".into(), "1".into()] };
        notices.push(lang.field_error(&crate::error::FieldError::new("embed", v, allowed)));
    }
    let notice = (!notices.is_empty()).then(|| {
        let s = shell.clone();
        html! {
            <div class="notice" role="status" id="link-notice">
                { for notices.iter().map(|n| html! { <p>{ n }</p> }) }
                <button type="button" class="close" aria-label={t(T::Dismiss)} title={t(T::Dismiss)}
                    onclick={Callback::from(move |_| s.dispatch(ShellAction::DismissNotice))}>{ "×" }</button>
            </div>
        }
    });
    let page = match shell.page {
        Page::Storm => {
            let s = storm.clone();
            html! {
                <StormPage {lang} state={storm.0.clone()}
                    dispatch={Callback::from(move |a: StormAction| s.dispatch(a))} />
            }
        }
        Page::Calculator => {
            let c = calc.clone();
            html! {
                <CalculatorPage {lang} state={calc.0.clone()}
                    dispatch={Callback::from(move |a: CalcAction| c.dispatch(a))} />
            }
        }
        Page::Admission => {
            let s = admission.clone();
            html! {
                <AdmissionPage {lang} state={admission.0.clone()}
                    dispatch={Callback::from(move |a: AdmissionAction| s.dispatch(a))} />
            }
        }
        Page::Queue => {
            let s = queue.clone();
            html! {
                <QueuePage {lang} state={queue.0.clone()}
                    dispatch={Callback::from(move |a: QueueAction| s.dispatch(a))} />
            }
        }
        Page::Breaker => {
            let s = breaker.clone();
            html! {
                <BreakerPage {lang} state={breaker.0.clone()}
                    dispatch={Callback::from(move |a: BreakerAction| s.dispatch(a))} />
            }
        }
    };
    html! {
        <div class={classes!("app", shell.embed.then_some("embed"))} lang={lang.html_tag()}>
            <a class="skip" id="skip-main" href="#main">{ t(T::SkipToContent) }</a>
            if shell.page == Page::Storm {
                <a class="skip" id="skip-play" href="#play" onclick={Callback::from(|e: MouseEvent| {
                    // Move the focus itself: following a link to a button only scrolls to it.
                    if let Some(play) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("play")) {
                        e.prevent_default();
                        if let Some(el) = play.dyn_ref::<web_sys::HtmlElement>() {
                            let _ = el.focus();
                        }
                    }
                })}>{ t(T::SkipToPlayback) }</a>
            }
            <header class="top">
                <div class="brand">
                    <svg class="logo" viewBox="0 0 32 32" aria-hidden="true">
                        <path d="M4 16h6l3-8 6 16 3-8h6" />
                    </svg>
                    <div>
                        <div class="name">{ t(T::AppName) }</div>
                        <div class="tagline">{ t(T::AppTagline) }</div>
                    </div>
                </div>
                if let Some(href) = full_page {
                    // Compact mode: no navigation, one way out to the full page.
                    <a class="open-full" id="open-full" target="_blank" rel="noopener" title={t(T::EmbedOpenFullHelp)}
                        {href}>{ t(T::EmbedOpenFull) }</a>
                } else {
                    <nav aria-label={t(T::NavLabel)}>{ nav }</nav>
                }
                <div class="langs" role="group" aria-label={t(T::LanguageLabel)}>{ lang_buttons }</div>
            </header>
            { for notice }
            <main id="main">{ page }</main>
            <footer>
                <p id="footer-model">{ t(T::FooterModel) }</p>
                <p>{ t(T::FooterOffline) }</p>
            </footer>
        </div>
    }
}
