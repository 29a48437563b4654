//! What the breaker lab draws at a playhead, from a run of `model::breaker_lab`: the state
//! band's segments, the calls in the strip, each call's cell and the window's contents.

use crate::model::breaker_lab::{Call, Fate, LabRun};
use crate::policy::breaker::State;
use std::ops::Range;

/// How a call's cell looks at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Answered, healthy.
    Ok,
    /// Answered, failed.
    Failed,
    /// Answered, healthy but slow.
    Slow,
    /// Rejected at once.
    Rejected,
    /// Let through, no answer yet.
    Pending,
}

/// A call's cell at `t_us`, whether it is a probe, and whether its answer was dropped
/// (it came after the state changed).
pub fn cell(c: &Call, t_us: u64) -> (Cell, bool, bool) {
    let probe = c.fate == Fate::Probe;
    let look = match c.fate {
        Fate::Rejected => Cell::Rejected,
        _ if c.done_us > t_us => Cell::Pending,
        _ if c.failed => Cell::Failed,
        _ if c.slow => Cell::Slow,
        _ => Cell::Ok,
    };
    let dropped = c.fate != Fate::Rejected && c.done_us <= t_us && !c.recorded;
    (look, probe, dropped)
}

/// The calls made by playhead `k` (call `k` included; every call at the end), the
/// latest `most` of them.
pub fn strip(run: &LabRun, k: usize, most: usize) -> Range<usize> {
    let end = (k + 1).min(run.calls.len());
    end.saturating_sub(most)..end
}

/// The calls the window holds at playhead `k`, oldest first (at most the latest `most`),
/// and how many more it holds.
pub fn window_calls(run: &LabRun, k: usize, most: usize) -> (&[u32], usize) {
    let f = run.frame(k);
    let end = f.records as usize;
    let all = &run.records[end.saturating_sub(f.tally.calls as usize)..end];
    let shown = &all[all.len().saturating_sub(most)..];
    (shown, all.len() - shown.len())
}

/// The state band: (from µs, to µs, state) for the whole run.
pub fn segments(run: &LabRun) -> Vec<(u64, u64, State)> {
    let mut out = Vec::with_capacity(run.changes.len() + 1);
    let (mut from, mut state) = (0, State::Closed);
    for c in &run.changes {
        out.push((from, c.at_us, state));
        (from, state) = (c.at_us, c.to);
    }
    out.push((from, run.end_us, state));
    out
}

/// A rate in percent, from a count over a total (0 for none).
pub fn pct(part: u32, of: u32) -> f64 {
    if of == 0 { 0.0 } else { f64::from(part) * 100.0 / f64::from(of) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::breaker_lab::{preset, run};

    #[test]
    fn the_window_at_a_playhead_is_the_latest_recorded_calls() {
        let r = run(&preset("source-003").unwrap()).unwrap();
        // As call 60 is made (rejected, just after the opening at 5.95 s): the window of
        // 20 that opened it, calls 40–59.
        let (shown, more) = window_calls(&r, 60, 100);
        assert_eq!((shown, more), (&(40..60).collect::<Vec<u32>>()[..], 0));
        let (shown, more) = window_calls(&r, 60, 5);
        assert_eq!((shown, more), (&[55u32, 56, 57, 58, 59][..], 15));
        assert_eq!(strip(&r, 60, 10), 51..61);
        assert_eq!(strip(&r, r.calls.len(), 10), 290..300, "at the end: the last calls");
        assert_eq!(cell(&r.calls[59], r.calls[60].at_us), (Cell::Failed, false, false));
        assert_eq!(cell(&r.calls[60], r.calls[60].at_us), (Cell::Rejected, false, false));
        assert_eq!(
            cell(&r.calls[59], r.calls[59].at_us),
            (Cell::Pending, false, false),
            "answers 50 ms later"
        );
        assert_eq!(cell(&r.calls[110], r.end_us), (Cell::Failed, true, false), "a failed probe");
    }

    #[test]
    fn answers_after_a_change_are_drawn_as_dropped() {
        let r = run(&preset("slow").unwrap()).unwrap();
        assert_eq!(cell(&r.calls[60], r.end_us), (Cell::Slow, false, true));
        assert_eq!(cell(&r.calls[59], r.end_us), (Cell::Slow, false, false));
    }

    #[test]
    fn the_band_covers_the_run_state_by_state() {
        let r = run(&preset("source-002").unwrap()).unwrap();
        let s = segments(&r);
        assert_eq!(s.first(), Some(&(0, 14_950_000, State::Closed)));
        assert_eq!(s[2], (44_950_000, 45_050_000, State::HalfOpen));
        assert_eq!(s.last(), Some(&(75_150_000, r.end_us, State::Closed)));
        assert_eq!(pct(10, 20), 50.0);
        assert_eq!(pct(1, 0), 0.0);
    }
}
