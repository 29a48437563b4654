//! The hook behind the pages' live regions: it keeps the figures of the run read last, so
//! that `state::announce::sentence` can say only what the newest run changed.

use std::cell::RefCell;

use yew::prelude::*;

use crate::i18n::Lang;
use crate::state::announce::{Said, sentence};

/// The runs a live region has read: the one before the newest, and the newest.
struct Heard {
    run: u64,
    /// The language its figures are written in: after a switch, the figures of the run
    /// before are in the other language's form (99.1 % against 99.1%) and would read as a
    /// change.
    lang: Lang,
    before: Option<Vec<Said>>,
    now: Vec<Said>,
}

/// The live region's sentence for finished run number `run` (a page's `Runs::finished`),
/// whose figures are `now` (`None` while there is no report: nothing is read). The figures
/// of a run are taken once, the first time it is seen; later renders of the same run (each
/// frame of the playback) read the same sentence, so the region stays quiet.
#[hook]
pub fn use_announcement(lang: Lang, run: u64, now: Option<Vec<Said>>) -> String {
    let heard = use_mut_ref(|| None::<Heard>);
    let Some(now) = now else { return String::new() };
    let mut heard: std::cell::RefMut<'_, Option<Heard>> = RefCell::borrow_mut(&heard);
    match heard.as_mut() {
        Some(h) if h.run == run && h.lang == lang => {}
        Some(h) if h.lang != lang => *h = Heard { run, lang, before: None, now },
        Some(h) => {
            h.before = Some(std::mem::replace(&mut h.now, now));
            h.run = run;
        }
        None => *heard = Some(Heard { run, lang, before: None, now }),
    }
    heard.as_ref().map_or_else(String::new, |h| sentence(lang, h.before.as_deref(), &h.now))
}
