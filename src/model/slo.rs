//! A service-level objective and its error budget, counted once here for the page, the CLI
//! and the lessons.
//!
//! Source 003 starts from the SLO ("SLO 是起点"): a monthly availability of 99.95 % leaves an
//! error budget of about 21.6 minutes, and the big-promo design is verified by "order success
//! stays ≥ 99.9 %" while entry rejections are watched apart. So the objective here is on the
//! entry's **core success** (succeeded + degraded, of admitted requests, the report's
//! `core_success_rate`): a request the entry's own admission control turned away with a 429
//! is a planned answer counted on its own line, not spent from the budget.

use crate::report::{Series, Summary};
use serde::{Deserialize, Serialize};

/// A success objective for the entry's answers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slo {
    /// Core success (succeeded + degraded, of admitted requests) the service promises, in
    /// percent (50–99.999).
    pub success_percent: f64,
}

impl Default for Slo {
    /// Source 003's verification target for the big promo: order success ≥ 99.9 %.
    fn default() -> Self {
        Slo { success_percent: 99.9 }
    }
}

/// How much of the run's error budget the run spent (in the report's JSON as `slo`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ErrorBudget {
    /// The objective, percent.
    pub success_percent: f64,
    /// Failed answers the objective allows over this run's admitted requests (requests).
    pub allowed: f64,
    /// Failed answers the run gave (requests; unfinished ones count as failed).
    pub spent: u64,
    /// spent / allowed, as a fraction (1.0 = the whole budget; infinite when the objective
    /// allows no failure and one happened).
    pub spent_fraction: f64,
    /// Whether core success met the objective.
    pub met: bool,
}

impl Slo {
    /// The objective as a fraction of admitted requests.
    pub fn target(self) -> f64 {
        self.success_percent / 100.0
    }

    /// The share of admitted requests the objective lets fail, in parts per million (100 −
    /// 99.9 is 0.09999999999999432 in binary floating point; in whole ppm it is 1,000, so
    /// a budget reads 1, not 0.9999999999998899). The objective counts to 0.0001 %: a finer
    /// one (typed, the knob steps by 0.001) is taken to its nearest ppm, here and in
    /// [`outage_minutes`](Self::outage_minutes) alike.
    pub fn error_ppm(self) -> u64 {
        ((100.0 - self.success_percent) * 10_000.0).round().clamp(0.0, 1e6) as u64
    }

    /// The run's error budget: allowed = admitted × (1 − target), spent = failed answers.
    pub fn budget(self, s: &Summary) -> ErrorBudget {
        let admitted = s.original_requests.saturating_sub(s.admission_rejected);
        // admitted × ppm is a whole number: exact in a u128, divided once.
        let allowed_ppm = u128::from(admitted) * u128::from(self.error_ppm());
        let allowed = allowed_ppm as f64 / 1e6;
        let spent = s.failed;
        let spent_fraction = match (spent, allowed > 0.0) {
            (0, _) => 0.0,
            (_, true) => spent as f64 / allowed,
            (_, false) => f64::INFINITY,
        };
        // Compared in whole millionths, so 99.9 % of 1,000 is met by exactly 999 successes.
        let met = u128::from(spent) * 1_000_000 <= allowed_ppm;
        ErrorBudget { success_percent: self.success_percent, allowed, spent, spent_fraction, met }
    }

    /// Per report bucket, the answers that must succeed for that bucket to meet the
    /// objective: target × (succeeded + degraded + failed). Drawn over the stacked outcomes,
    /// the succeeded and degraded bands must reach this line.
    pub fn target_line(self, series: &Series) -> Vec<f64> {
        let n = series.succeeded.len().max(series.degraded.len()).max(series.failed.len());
        let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
        (0..n)
            .map(|i| {
                let answered = at(&series.succeeded, i) + at(&series.degraded, i) + at(&series.failed, i);
                self.target() * answered as f64
            })
            .collect()
    }

    /// Per report bucket, the share of the run's error budget spent by the end of that
    /// bucket, in percent (100 = all of it). Requests still unfinished when the run ended
    /// count as failed in the last bucket, as they do in the summary, so the line ends
    /// where the headline's figure is.
    pub fn budget_spent_over_time(self, summary: &Summary, series: &Series) -> Vec<f64> {
        let allowed = self.budget(summary).allowed;
        let recorded: u64 = series.failed.iter().sum();
        let unfinished = summary.failed.saturating_sub(recorded);
        let last = series.failed.len().saturating_sub(1);
        let mut failed = 0u64;
        series
            .failed
            .iter()
            .enumerate()
            .map(|(i, &f)| {
                failed += f + if i == last { unfinished } else { 0 };
                if allowed > 0.0 {
                    100.0 * failed as f64 / allowed
                } else if failed > 0 {
                    f64::INFINITY
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// The error budget as time: minutes of total outage the objective allows over
    /// `period_days` (source 003: 99.95 % over 30 days ≈ 21.6 minutes).
    pub fn outage_minutes(self, period_days: u32) -> f64 {
        // In whole milliseconds of the period and parts per million of the objective, so
        // the source's 21.6 comes out exactly rather than as 21.600000000000016.
        let period_ms = u128::from(period_days) * 86_400_000;
        let miss_ppm = u128::from(self.error_ppm());
        (period_ms * miss_ppm) as f64 / 1e6 / 60_000.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_003_monthly_budget_is_21_6_minutes() {
        assert_eq!(Slo { success_percent: 99.95 }.outage_minutes(30), 21.6);
        assert_eq!(Slo { success_percent: 99.9 }.outage_minutes(30), 43.2);
    }

    fn summary(original: u64, rejected: u64, ok: u64, failed: u64) -> Summary {
        Summary {
            original_requests: original,
            admission_rejected: rejected,
            succeeded: ok,
            failed,
            ..Summary::default()
        }
    }

    #[test]
    fn budget_counts_failed_answers_of_admitted_requests() {
        let slo = Slo { success_percent: 99.0 };
        // 1,100 arrive, 100 turned away at admission (not spent), 990 succeed, 10 fail.
        let b = slo.budget(&summary(1100, 100, 990, 10));
        assert!((b.allowed - 10.0).abs() < 1e-9);
        assert_eq!(b.spent, 10);
        assert!((b.spent_fraction - 1.0).abs() < 1e-9);
        assert!(b.met, "exactly the allowed failures meets the objective");
        let b = slo.budget(&summary(1100, 100, 989, 11));
        assert!(!b.met);
        assert!(b.spent_fraction > 1.0);
    }

    #[test]
    fn budgets_are_whole_millionths_not_float_noise() {
        let slo = Slo::default();
        assert_eq!(slo.error_ppm(), 1_000);
        // 100 − 99.9 in floats is 0.09999999999999432: the budget read 0.9999999999998899.
        assert_eq!(slo.budget(&summary(1000, 0, 999, 1)).allowed, 1.0);
        let b = slo.budget(&summary(5153, 0, 5153, 0));
        assert_eq!(b.allowed.to_string(), "5.153");
        let b = slo.budget(&summary(100, 0, 0, 100));
        assert_eq!(b.spent_fraction, 1000.0);
        assert_eq!(Slo { success_percent: 99.999 }.error_ppm(), 10);
        // At the objective's edge: exactly the allowed failures meet it, one more does not.
        let five_nines = Slo { success_percent: 99.999 };
        assert!(five_nines.budget(&summary(100_000, 0, 99_999, 1)).met);
        assert!(!five_nines.budget(&summary(100_000, 0, 99_998, 2)).met);
    }

    #[test]
    fn no_allowed_failure_spent_is_infinite() {
        let b = Slo { success_percent: 100.0 }.budget(&summary(10, 0, 9, 1));
        assert!(b.spent_fraction.is_infinite() && !b.met);
        let b = Slo { success_percent: 100.0 }.budget(&summary(10, 0, 10, 0));
        assert_eq!(b.spent_fraction, 0.0);
        assert!(b.met);
    }

    #[test]
    fn source_003_big_promo_protection_keeps_orders_at_99_9() {
        use crate::scenario::presets;
        let run = |s: crate::scenario::Scenario| crate::model::chain::run(&s).unwrap();
        let slo = Slo::default();
        let bare = run(presets::big_promo());
        let protected = run(presets::big_promo_protected());
        assert!(!slo.budget(&bare.summary).met, "the shared pool takes orders down");
        let b = slo.budget(&protected.summary);
        assert!(
            b.met,
            "order success stays at or above 99.9 % ({} failed of {} allowed)",
            b.spent, b.allowed
        );
        // The burn line ends at the headline's share (unfinished requests included).
        let burn = slo.budget_spent_over_time(&bare.summary, &bare.series);
        let expected = 100.0 * slo.budget(&bare.summary).spent_fraction;
        assert!((burn.last().unwrap() - expected).abs() < 1e-6 * expected, "{burn:?}");
    }

    #[test]
    fn target_line_and_burn_follow_the_buckets() {
        let slo = Slo { success_percent: 90.0 };
        let series =
            Series { succeeded: vec![9, 5], degraded: vec![1, 0], failed: vec![0, 5], ..Series::default() };
        let line = slo.target_line(&series);
        assert!((line[0] - 9.0).abs() < 1e-9 && (line[1] - 9.0).abs() < 1e-9);
        let s = summary(20, 0, 14, 5);
        // allowed = 20 × 10 % = 2; 5 failed in the second bucket = 250 %.
        let burn = slo.budget_spent_over_time(&s, &series);
        assert_eq!(burn[0], 0.0);
        assert!((burn[1] - 250.0).abs() < 1e-9);
    }
}
