//! Which page is open and in which language.

use crate::i18n::{Lang, T};
use crate::query::Query;

/// URL keys the app shell reads on every page (the page, the language, compact mode, and a
/// lesson's step and modes); no page lists them as unknown.
pub const SHELL_KEYS: [&str; 9] =
    ["page", "lang", "embed", "lesson", "step", "present", "notes", "interview", "role"];

/// Whether the shell reads `key` (see [`SHELL_KEYS`]).
pub fn is_shell_key(key: &str) -> bool {
    SHELL_KEYS.contains(&key)
}

/// The labs the navigation holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Page {
    /// The animated retry-storm lab over the chain model (the landing page).
    Storm,
    /// The closed-form amplification and in-flight calculator.
    Calculator,
    /// The admission lab: a token bucket and a concurrency limit, event by event.
    Admission,
    /// The queue lab: a worker pool against its closed forms.
    Queue,
    /// The circuit breaker, call by call.
    Breaker,
    /// The index of guided lessons.
    Lessons,
    /// The stability map: where retries turn a blip into an outage.
    Stability,
}

impl Page {
    /// Every page, in navigation order.
    pub const ALL: [Page; 7] = [
        Page::Lessons,
        Page::Storm,
        Page::Calculator,
        Page::Admission,
        Page::Queue,
        Page::Breaker,
        Page::Stability,
    ];
    /// The page a link without `page=` opens.
    pub const DEFAULT: Page = Page::Storm;

    /// The value of `page=` in the URL.
    pub fn slug(self) -> &'static str {
        match self {
            Page::Storm => "storm",
            Page::Calculator => "calculator",
            Page::Admission => "admission",
            Page::Queue => "queue",
            Page::Breaker => "breaker",
            Page::Lessons => "lessons",
            Page::Stability => "stability",
        }
    }

    /// The navigation label.
    pub fn label(self) -> T {
        match self {
            Page::Storm => T::StormNav,
            Page::Calculator => T::CalcNav,
            Page::Admission => T::AdmNav,
            Page::Queue => T::QNav,
            Page::Breaker => T::BlTitle,
            Page::Lessons => T::LessonsNav,
            Page::Stability => T::StabNav,
        }
    }

    /// Reads a `page=` value.
    pub fn from_slug(slug: &str) -> Option<Page> {
        Page::ALL.into_iter().find(|p| p.slug() == slug)
    }
}

/// The page and language a URL asks for, and what was wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// The page to show.
    pub page: Page,
    /// The language the URL names, if it names one we speak.
    pub lang: Option<Lang>,
    /// A `page=` value that names no page, to tell the user.
    pub unknown_page: Option<String>,
    /// A `lang=` value that names no language we speak, to tell the user.
    pub unknown_lang: Option<String>,
    /// `embed=1`: the compact mode an `<iframe>` shows (figures without the control panel).
    pub embed: bool,
    /// An `embed=` value other than `0` or `1`, to tell the user (the full page is shown).
    pub bad_embed: Option<String>,
    /// Keys no one reads, to tell the user: on the lessons index, and on a lesson link
    /// without a page state (the step's own state is shown), every key but the shell's.
    /// Every other page lists the keys it does not read itself.
    pub unused: crate::state::lab::UnknownKeys,
}

impl Route {
    /// Reads `page=` and `lang=` from a query.
    pub fn from_query(q: &Query) -> Route {
        let (page, unknown_page) = match q.get("page") {
            None | Some("") => (Page::DEFAULT, None),
            Some(s) => match Page::from_slug(s) {
                Some(p) => (p, None),
                None => (Page::DEFAULT, Some(s.to_string())),
            },
        };
        let (lang, unknown_lang) = match q.get("lang") {
            None | Some("") => (None, None),
            Some(tag) => match Lang::from_tag(tag) {
                Some(l) => (Some(l), None),
                None => (None, Some(crate::error::clip(tag))),
            },
        };
        let (embed, bad_embed) = match q.get("embed") {
            None | Some("" | "0") => (false, None),
            Some("1") => (true, None),
            Some(v) => (false, Some(crate::error::clip(v))),
        };
        let lesson_step_only = q.get("lesson").is_some_and(|v| !v.is_empty()) && q.get("page").is_none();
        let unused = if lesson_step_only || (page == Page::Lessons && unknown_page.is_none()) {
            crate::state::lab::unknown_keys(q, is_shell_key)
        } else {
            Default::default()
        };
        Route {
            page,
            lang,
            unknown_page: unknown_page.map(|p| crate::error::clip(&p)),
            unknown_lang,
            embed,
            bad_embed,
            unused,
        }
    }
}

/// The language to start in: the link's, else the one saved in this browser, else the
/// browser's preferred languages, else English.
pub fn initial_lang<'a>(
    from_url: Option<Lang>,
    saved: Option<&str>,
    browser: impl IntoIterator<Item = &'a str>,
) -> Lang {
    from_url.or_else(|| saved.and_then(Lang::from_tag)).unwrap_or_else(|| Lang::from_browser(browser))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_reads_page_and_language() {
        let r = Route::from_query(&Query::parse("?page=calculator&lang=zh"));
        assert_eq!((r.page, r.lang, r.unknown_page), (Page::Calculator, Some(Lang::Zh), None));
        assert_eq!(Route::from_query(&Query::parse("?page=breaker")).page, Page::Breaker);
        let r = Route::from_query(&Query::parse("?page=nope&lang=fr"));
        assert_eq!((r.page, r.lang), (Page::DEFAULT, None));
        assert_eq!(r.unknown_page.as_deref(), Some("nope"));
        assert_eq!(r.unknown_lang.as_deref(), Some("fr"), "a language we do not speak is named");
        let r = Route::from_query(&Query::parse("?lang=zh-Hans-CN"));
        assert_eq!((r.lang, r.unknown_lang), (Some(Lang::Zh), None));
    }

    #[test]
    fn keys_no_page_reads_are_named_on_the_lessons_index_and_a_bare_lesson_link() {
        let unused = |link: &str| Route::from_query(&Query::parse(link)).unused;
        assert_eq!(unused("?page=lessons&lang=en&zzz=1&preset=x")[..], ["zzz", "preset"]);
        assert_eq!(
            unused("?lesson=interview&step=2&present=1&zzz=1")[..],
            ["zzz"],
            "the step's own state is shown"
        );
        assert!(unused("?lesson=interview&step=2&role=candidate&notes=0&embed=0").is_empty());
        // With a page state, the page reads the keys and lists what it does not know.
        assert!(unused("?lesson=interview&step=2&page=storm&zzz=1").is_empty());
        assert!(unused("?page=storm&zzz=1").is_empty());
    }

    #[test]
    fn route_reads_compact_mode() {
        let r = Route::from_query(&Query::parse("?page=queue&embed=1"));
        assert_eq!((r.page, r.embed, r.bad_embed), (Page::Queue, true, None));
        assert!(!Route::from_query(&Query::parse("?embed=0")).embed);
        let r = Route::from_query(&Query::parse("?embed=yes"));
        assert_eq!(
            (r.embed, r.bad_embed.as_deref()),
            (false, Some("yes")),
            "a bad value is named, not guessed"
        );
    }

    #[test]
    fn language_precedence_is_url_then_saved_then_browser() {
        assert_eq!(initial_lang(Some(Lang::En), Some("zh"), ["zh-CN"]), Lang::En);
        assert_eq!(initial_lang(None, Some("zh"), ["en-US"]), Lang::Zh);
        assert_eq!(initial_lang(None, Some("garbage"), ["zh-TW"]), Lang::Zh);
        assert_eq!(initial_lang(None, None, ["fr"]), Lang::En);
    }
}
