//! What a page's live region reads when a run finishes: its lead figures the first time,
//! then every figure that changed, each as old → new, so that a screen reader user moving
//! one slider hears what that move did and not the whole panel again.

use crate::i18n::{Lang, T};

/// One figure a live region may read: its label and its value as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    pub label: T,
    pub value: String,
    /// Read on the first run; the others only when a later run changes them (a page with
    /// many figures, the storm page's cards, says three first, not nineteen).
    pub lead: bool,
    /// A figure of compare mode's side B (read as "B amplification").
    pub side_b: bool,
}

impl Said {
    /// A figure read on every run's sentence that has it.
    pub fn new(label: T, value: impl Into<String>) -> Self {
        Said { label, value: value.into(), lead: true, side_b: false }
    }

    /// The same figure of compare mode's side B.
    pub fn on_b(self) -> Self {
        Said { side_b: true, ..self }
    }

    /// Its label as read.
    fn name(&self, lang: Lang) -> String {
        if self.side_b {
            lang.f(T::AnnounceSideB, &[("label", lang.t(self.label))])
        } else {
            lang.t(self.label).to_string()
        }
    }

    /// A figure read only when a run changes it.
    pub fn when_changed(label: T, value: impl Into<String>) -> Self {
        Said { lead: false, ..Said::new(label, value) }
    }
}

/// Most changed figures a sentence reads; it says how many more there are.
pub const MOST_READ: usize = 6;

/// The sentence for a run whose figures are `now`, after a run whose figures were `before`
/// (`None`: the first run the page shows, or one whose figures are other ones).
pub fn sentence(lang: Lang, before: Option<&[Said]>, now: &[Said]) -> String {
    let sep = match lang {
        Lang::En => ", ",
        Lang::Zh => "，",
    };
    let before = before.filter(|b| {
        b.len() == now.len() && b.iter().zip(now).all(|(b, n)| (b.label, b.side_b) == (n.label, n.side_b))
    });
    let Some(before) = before else {
        let all: Vec<String> =
            now.iter().filter(|s| s.lead).map(|s| format!("{} {}", s.name(lang), s.value)).collect();
        return lang.f(T::AnnounceAll, &[("figures", &all.join(sep))]);
    };
    // The lead figures that changed first, then the others, at most `MOST_READ` in all: a
    // move that changes the random draws shifts most of the storm page's nineteen cards.
    let changed: Vec<(&Said, &Said)> = before.iter().zip(now).filter(|(b, n)| b.value != n.value).collect();
    let in_order = changed.iter().filter(|(_, n)| n.lead).chain(changed.iter().filter(|(_, n)| !n.lead));
    let mut read: Vec<String> = in_order
        .take(MOST_READ)
        .map(|(b, n)| format!("{} {} → {}", n.name(lang), b.value, n.value))
        .collect();
    if changed.len() > MOST_READ {
        read.push(lang.f(T::AnnounceMore, &[("n", &(changed.len() - MOST_READ).to_string())]));
    }
    if read.is_empty() {
        lang.t(T::AnnounceSame).to_string()
    } else {
        lang.f(T::AnnounceChanged, &[("figures", &read.join(sep))])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(amp: &str, success: &str) -> Vec<Said> {
        vec![Said::new(T::HAmplification, amp), Said::new(T::HCoreSuccess, success)]
    }

    #[test]
    fn the_first_run_reads_every_figure_then_only_what_changed() {
        let first = figures("27×", "99.1 %");
        assert_eq!(sentence(Lang::En, None, &first), "Run finished: Amplification 27×, Core success 99.1 %.");
        let second = figures("9×", "99.1 %");
        assert_eq!(
            sentence(Lang::En, Some(&first), &second),
            "Run finished, changed: Amplification 27× → 9×."
        );
        assert_eq!(sentence(Lang::Zh, Some(&first), &second), "运行完成，变化：放大倍数 27× → 9×。");
        assert_eq!(sentence(Lang::En, Some(&second), &second), "Run finished: no figure changed.");
        assert_eq!(sentence(Lang::Zh, Some(&second), &second), "运行完成：各项数字没有变化。");
    }

    #[test]
    fn figures_read_only_when_changed_are_compared_too() {
        let mut first = figures("27×", "99.1 %");
        first.push(Said::when_changed(T::HTimeouts, "40"));
        assert_eq!(sentence(Lang::En, None, &first), "Run finished: Amplification 27×, Core success 99.1 %.");
        let mut second = figures("27×", "99.1 %");
        second.push(Said::when_changed(T::HTimeouts, "20"));
        // A move that changes none of the lead figures is not "no figure changed".
        assert_eq!(sentence(Lang::En, Some(&first), &second), "Run finished, changed: Timeouts 40 → 20.");
    }

    #[test]
    fn a_long_list_of_changes_reads_the_leads_first_and_counts_the_rest() {
        let labels = [
            T::HOriginal,
            T::HLeaf,
            T::HSucceeded,
            T::HDegraded,
            T::HRetries,
            T::HTimeouts,
            T::HP50,
            T::HP99,
        ];
        let make = |v: &str| {
            let mut all: Vec<Said> = labels.iter().map(|&l| Said::when_changed(l, v)).collect();
            all.push(Said::new(T::HFailed, v));
            all
        };
        let said = sentence(Lang::En, Some(&make("1")), &make("2"));
        assert!(said.starts_with("Run finished, changed: Failed 1 → 2, Original requests 1 → 2, "), "{said}");
        assert!(said.ends_with(", and 3 more (on the cards)."), "{said}");
        assert_eq!(said.matches(" → ").count(), MOST_READ);
    }

    #[test]
    fn other_figures_are_read_in_full() {
        let storm = figures("27×", "99.1 %");
        let other = vec![Said::new(T::QRho, "60 %")];
        assert_eq!(sentence(Lang::En, Some(&storm), &other), "Run finished: Utilisation ρ 60 %.");
    }

    #[test]
    fn side_b_appearing_is_read_with_its_name() {
        let a = figures("27×", "0 %");
        let mut both = a.clone();
        both.extend(figures("18×", "0 %").into_iter().map(Said::on_b));
        let said = sentence(Lang::En, Some(&a), &both);
        assert_eq!(
            said,
            "Run finished: Amplification 27×, Core success 0 %, B Amplification 18×, B Core success 0 %."
        );
        let mut moved = both.clone();
        moved[2].value = "9×".into();
        assert_eq!(
            sentence(Lang::En, Some(&both), &moved),
            "Run finished, changed: B Amplification 18× → 9×."
        );
        assert!(sentence(Lang::Zh, None, &both).contains("B 侧"), "{}", sentence(Lang::Zh, None, &both));
    }
}
