//! The caller side: each attempt walks the client's stages in order (`policy::stack`), the
//! answer walks them back, and the retry stage decides what happens next.
//!
//! One arm per stage, on the way out ([`GeneralEngine::walk_out`]) and on the way back
//! ([`GeneralEngine::on_attempt_result`], and `refuse` for an attempt a stage turned away);
//! the retry gates in `retry`. The order comes from `ClientSpec::stages`, nowhere else.

use super::calls::{CallRef, DepState, Parent, SlotKind};
use super::engine::{Answer, AnswersBy, Ev, GeneralEngine, Reply};
use super::rules;
use super::stats::{Degrade, MarkBy, NO_TRACE};
use super::timers::Reserved;
use crate::policy::breaker::{self, State as BreakerState, Transition, Verdict};
use crate::policy::deadline::{may_attempt_after, try_timeout};
use crate::policy::stack::{Stage, Stages};
use crate::policy::{Failure, Outcome};
use crate::report::MarkKind;
use crate::scenario::Fallback;
use crate::sim::rng::Purpose;
use crate::sim::{Class, Micros};

/// Where the end of an attempt came from, which decides what each stage does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// The dependency answered: every stage sees the answer.
    Callee,
    /// The timer of the stage at this position fired: the stages inside it are interrupted
    /// (they give back what they hold and record nothing), the stages outside see a timeout.
    Timer(u8),
}

impl GeneralEngine {
    /// A layer's call (at `hop`) starts calling its dependencies, all at once.
    // Inlined into `start_work` (see there).
    #[inline(always)]
    pub(super) fn start_deps(&mut self, now: Micros, c: CallRef, hop: usize) {
        let super::plan::HopKind::Layer { ref deps, .. } = self.plan.hops[hop].kind else { return };
        let (first, n) = (deps.start, deps.len());
        self.calls.start_deps(c, first, n, now);
        for j in 0..n {
            // An earlier dependency may have ended the call already (a refusal).
            if j > 0 && !self.calls.valid(c) {
                break;
            }
            let needed_by = self.plan.clients[first + j].needed_by;
            if needed_by < 1.0 && self.calls.get(c).key.uniform_n(Purpose::Needs, j as u32) >= needed_by {
                if let Some(r) = self.dep_done(now, c, j, Ok(None)) {
                    self.respond(now, r.call, r.outcome, r.answer);
                }
            } else {
                self.attempt(now, c, j);
            }
        }
    }

    /// A caller-side event of call `c` about its dependency `d`, for its trace.
    #[inline]
    pub(super) fn mark(&mut self, c: CallRef, d: usize, kind: MarkKind, start: Micros, end: Micros) {
        let call = self.calls.get(c);
        if call.trace != NO_TRACE {
            let callee = self.plan.clients[self.calls.dep(c, d).client as usize].callee;
            let by = MarkBy { hop: call.hop as usize, call: call.span, callee };
            self.stats.traces.mark(call.trace, by, kind, start, end);
        }
    }

    /// Starts the next attempt of dependency `d`.
    pub(super) fn attempt(&mut self, now: Micros, c: CallRef, d: usize) {
        let dep = self.calls.dep_mut(c, d);
        dep.attempt += 1;
        dep.started = now;
        let (cl, a) = (dep.client as usize, dep.attempt);
        self.walk_out(now, c, d, cl, 0, a);
    }

    /// The attempt (of client `cl`) passes the stages from position `from` inwards, then is
    /// sent; a stage may refuse it or make it wait (a bulkhead queue), in which case the walk
    /// resumes from the next stage when the wait is over. `a`: the attempt's number.
    pub(super) fn walk_out(&mut self, now: Micros, c: CallRef, d: usize, cl: usize, from: usize, a: u32) {
        // What the walk needs of the client's spec, copied once: the stages call `&mut self`
        // methods, so a reference could not be held across them.
        let (stages, per_try, callee) = {
            let spec = &self.plan.clients[cl];
            (spec.stages, spec.per_try, spec.callee)
        };
        // Most clients have nothing but the timeout: no walk through the list. Its timer
        // keeps the place in the order of events it takes here, but is armed only once the
        // attempt is sent, and not at all when a leaf took it that answers no later (at the
        // same instant a completion goes before a timer): such a timer would only be dropped
        // as stale when due, and most are. (While the attempt is out, this client arms
        // another timer only if the attempt was answered at once: this one is stale then,
        // and dropped when due, wherever it was put.)
        if from == 0 && stages.timer_only() {
            let timer = if stages.has(Stage::Timeout) { self.timeout_stage(now, c, per_try) } else { None };
            let answers_by = self.send(now, c, d, callee);
            if let Some(r) = timer
                && answers_by.0 > r.at
            {
                self.arm_reserved(cl, r, c, d as u8, a);
            }
            return;
        }
        for pos in from..stages.len() {
            match stages.get(pos).unwrap_or(Stage::Retry) {
                Stage::Retry | Stage::RetryBudget => {}
                // The gates most clients lack run out of line (see `breaker_sees`).
                Stage::Deadline => {
                    if !self.deadline_lets_attempt(now, c, d, cl, pos) {
                        return;
                    }
                }
                Stage::Breaker => {
                    if !self.breaker_lets_attempt(now, c, d, cl, pos) {
                        return;
                    }
                }
                Stage::Timeout => {
                    if let Some(r) = self.timeout_stage(now, c, per_try) {
                        self.arm_reserved(cl, r, c, d as u8, a);
                    }
                }
                Stage::Bulkhead => {
                    if !self.bulkhead_lets_attempt(now, c, d, cl, pos) {
                        return;
                    }
                }
            }
        }
        let _ = self.send(now, c, d, callee);
    }

    /// The timeout stage on the way out: the attempt's timer, the per-try timeout capped by
    /// the deadline left (`per_try`: µs, if the client has one), its place in the order of
    /// events taken now; the caller arms it.
    #[inline(always)]
    fn timeout_stage(&mut self, now: Micros, c: CallRef, per_try: Option<Micros>) -> Option<Reserved> {
        let deadline = self.calls.get(c).deadline;
        try_timeout(per_try, deadline, now).and_then(|t| self.reserve_try_timer(now, t))
    }

    /// The deadline stage on the way out: whether enough of the deadline is left to try;
    /// if not, the attempt is refused.
    #[inline(never)]
    fn deadline_lets_attempt(&mut self, now: Micros, c: CallRef, d: usize, cl: usize, pos: usize) -> bool {
        let deadline = self.calls.get(c).deadline;
        if may_attempt_after(deadline, now, 0, self.plan.clients[cl].min_useful) {
            return true;
        }
        self.stats.clients[cl].deadline_exhausted += 1;
        self.stats.totals.deadline_exhausted += 1;
        self.mark(c, d, MarkKind::BudgetExhausted, now, now);
        self.refuse(now, c, d, pos, Outcome::DeadlineExceeded);
        false
    }

    /// The breaker stage on the way out: the attempt takes a permit from its instance's
    /// breaker, or is refused.
    #[inline(never)]
    fn breaker_lets_attempt(&mut self, now: Micros, c: CallRef, d: usize, cl: usize, pos: usize) -> bool {
        let n_inst = self.client_rt[cl].breakers.len();
        let u = self.calls.get(c).key.uniform(Purpose::Instance);
        let inst = ((u * n_inst as f64) as usize).min(n_inst - 1);
        let (permit, moved) = self.client_rt[cl].breakers[inst].try_acquire(now);
        if let Some(t) = moved {
            self.breaker_moved(now, cl, inst, t);
        }
        match permit {
            Some(p) => {
                self.calls.dep_mut(c, d).permit = Some((inst as u16, p));
                true
            }
            None => {
                self.stats.clients[cl].breaker_rejected += 1;
                self.stats.totals.breaker_rejected += 1;
                self.mark(c, d, MarkKind::BreakerRejected, now, now);
                self.refuse(now, c, d, pos, Outcome::BreakerOpen);
                false
            }
        }
    }

    /// Sends the current attempt of dependency `d` to hop `callee` now. Returns when the
    /// callee answers if that is known already (see [`arrive`](GeneralEngine::arrive)).
    #[inline(always)]
    fn send(&mut self, now: Micros, c: CallRef, d: usize, callee: usize) -> AnswersBy {
        let (cl, a, key, deadline, trace) = {
            let (call, dep) = self.calls.call_and_dep_mut(c, d);
            let (key, deadline, trace) = (call.key, call.deadline, call.trace);
            dep.state = DepState::InFlight;
            dep.sent_at = now;
            let a = dep.attempt;
            (dep.client as usize, a, key.child(d as u32, a), deadline, trace)
        };
        let rt = &mut self.stats.clients[cl];
        rt.attempts += 1;
        if a > 1 {
            rt.retries += 1;
            self.stats.totals.retries += 1;
        }
        let parent = Parent { call: c, dep: d as u8, attempt: a };
        // The callee records itself as the attempt's call (`arrive_as`).
        self.arrive(now, callee, Some(parent), key, deadline, trace)
    }

    /// A per-try timer fired: the caller stops waiting for the attempt.
    pub(super) fn on_try_timeout(&mut self, now: Micros, c: CallRef, d: usize) {
        self.stats.totals.timeouts += 1;
        let dep = *self.calls.dep(c, d);
        self.stats.clients[dep.client as usize].timeouts += 1;
        self.mark(c, d, MarkKind::Timeout, dep.started, now);
        if dep.state == DepState::InFlight && self.calls.valid(dep.child) {
            if self.plan.cancel_on_timeout {
                self.cancel_subtree(now, dep.child);
            } else {
                self.orphan_subtree(dep.child);
            }
        }
        let cl = dep.client as usize;
        let pos = self.plan.clients[cl].stages.position(Stage::Timeout).unwrap_or(0);
        let (di, why) = (self.calls.dep_index(c, d), Origin::Timer(pos as u8));
        if let Some(r) = self.on_attempt_result(now, c, d, di, Outcome::Timeout, Answer::default(), why) {
            self.respond(now, r.call, r.outcome, r.answer);
        }
    }

    /// A stage at `pos` refused the attempt: the stages outside it give back what they
    /// hold, recording nothing, and the dependency is done (refusals are never retried).
    pub(super) fn refuse(&mut self, now: Micros, c: CallRef, d: usize, pos: usize, why: Outcome) {
        let cl = self.calls.dep(c, d).client as usize;
        let stages = self.plan.clients[cl].stages;
        for p in (0..pos).rev() {
            match stages.get(p).unwrap_or(Stage::Retry) {
                Stage::Breaker => {
                    if let Some((inst, permit)) = self.calls.dep_mut(c, d).permit.take() {
                        self.client_rt[cl].breakers[inst as usize].release(permit);
                    }
                }
                Stage::Bulkhead => self.give_back_slot(now, c, d),
                Stage::Retry | Stage::Deadline | Stage::RetryBudget | Stage::Timeout => {}
            }
        }
        if let Some(r) = self.dep_done(now, c, d, Err(why)) {
            self.respond(now, r.call, r.outcome, r.answer);
        }
    }

    /// The attempt of dependency `d` ended with `outcome`: its stages see it from the inside
    /// out, and the retry stage decides whether to try again. `di`: where the dependency's
    /// record is kept (`Calls::dep_index`). Returns the caller's reply if this was the last
    /// answer it waited for: the caller sends it (see `respond`).
    // Inlined, with `retry` and `dep_done`, into `respond`: the answer's way back up is then
    // one loop (see `start_work` for the way down).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_attempt_result(
        &mut self,
        now: Micros,
        c: CallRef,
        d: usize,
        di: usize,
        outcome: Outcome,
        answer: Answer,
        origin: Origin,
    ) -> Option<Reply> {
        let (cl, sent, sent_at, attempt, prev_sleep) = {
            let dep = self.calls.dep_at_mut(di);
            let sent = dep.state == DepState::InFlight;
            (dep.client as usize, sent, dep.sent_at, dep.attempt, dep.prev_sleep)
        };
        let failed = matches!(outcome, Outcome::Timeout | Outcome::Error | Outcome::Overload { .. });
        let stages = self.plan.clients[cl].stages;
        // A timer-only stack has no stage that sees an end (see `walk_out`).
        let stages = if stages.timer_only() { Stages::default() } else { stages };
        for (p, stage) in stages.iter().enumerate().rev() {
            // A stage inside the timer that fired is interrupted; one outside sees the timeout.
            let sees = match origin {
                Origin::Callee => true,
                Origin::Timer(k) => p < k as usize,
            };
            match stage {
                Stage::Bulkhead => self.give_back_slot(now, c, d),
                Stage::Breaker => self.breaker_sees(now, c, d, outcome, sees && sent, sent_at),
                Stage::RetryBudget => {
                    if sees {
                        self.budget_sees(now, cl, outcome, attempt == 1, failed);
                    }
                }
                // Nothing here for these (`Stages::timer_only` skips this loop on it: a
                // timeout given work on the way back must leave that test).
                Stage::Retry | Stage::Deadline | Stage::Timeout => {}
            }
        }
        if outcome.is_ok() {
            if attempt == 1 {
                self.stats.clients[cl].first_successes += 1;
            }
            if answer.empty && self.plan.clients[cl].fallback.is_some() {
                self.stats.totals.computed_empty += 1;
            }
            return self.dep_done_at(now, c, d, di, Ok(answer.degraded));
        }
        self.retry(now, c, d, cl, outcome, attempt, prev_sleep)
    }

    /// The breaker stage sees the attempt end (`seen`: it reached the dependency and the
    /// stage saw its end; otherwise the permit is only given back).
    // Out of line, with `budget_sees`: most clients have neither stage, and their bodies
    // inlined into `respond` made its hot path spill registers.
    #[inline(never)]
    fn breaker_sees(
        &mut self,
        now: Micros,
        c: CallRef,
        d: usize,
        outcome: Outcome,
        seen: bool,
        sent_at: Micros,
    ) {
        let dep = self.calls.dep_mut(c, d);
        let cl = dep.client as usize;
        let Some((inst, permit)) = dep.permit.take() else { return };
        let client_errors = self.plan.clients[cl].breaker.map(|b| b.client_errors).unwrap_or_default();
        let breaker = &mut self.client_rt[cl].breakers[inst as usize];
        // It records calls that reached the dependency and whose end it saw.
        let verdict = if seen { breaker::verdict(outcome, client_errors) } else { Verdict::Ignored };
        if verdict == Verdict::Ignored {
            breaker.release(permit);
        } else {
            let moved = breaker.on_result(now, permit, verdict == Verdict::Failure, now - sent_at);
            if let Some(t) = moved {
                self.breaker_moved(now, cl, inst as usize, t);
            }
            self.record_window(now, cl, inst as usize);
        }
    }

    /// The retry-budget stage sees the attempt end.
    #[inline(never)]
    fn budget_sees(&mut self, now: Micros, cl: usize, outcome: Outcome, first: bool, failed: bool) {
        if let Some(b) = self.client_rt[cl].retry_budget.as_mut() {
            if outcome.is_ok() {
                b.on_success(first);
            } else if failed {
                b.on_failure();
            }
            let v = b.milli_tokens() as i64;
            if let Some(g) = self.stats.clients[cl].budget_g {
                self.stats.rec.set(g, now, v);
            }
        }
    }

    /// The retry stage: retry after a backoff if the policy allows and every retry gate
    /// (deadline, retry budget, in stack order) agrees; otherwise the failure is final (and
    /// the caller's reply, if it waited for nothing else, is returned).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn retry(
        &mut self,
        now: Micros,
        c: CallRef,
        d: usize,
        cl: usize,
        outcome: Outcome,
        attempt: u32,
        prev_sleep: Micros,
    ) -> Option<Reply> {
        let (key, deadline) = {
            let call = self.calls.get(c);
            (call.key, call.deadline)
        };
        let spec = &self.plan.clients[cl];
        let Some(delay) = rules::retry_delay(spec, attempt, prev_sleep, key, outcome) else {
            let why = rules::gave_up(spec, attempt);
            self.mark(c, d, why, now, now);
            return self.dep_done(now, c, d, Err(outcome));
        };
        let (stages, min_useful) = (spec.stages, spec.min_useful);
        // A timer-only stack has no retry gate (see `walk_out`).
        let stages = if stages.timer_only() { Stages::default() } else { stages };
        for stage in stages.iter() {
            match stage {
                Stage::Deadline => {
                    if !may_attempt_after(deadline, now, delay, min_useful) {
                        self.stats.clients[cl].deadline_exhausted += 1;
                        self.stats.totals.deadline_exhausted += 1;
                        self.mark(c, d, MarkKind::BudgetExhausted, now, now);
                        return self.dep_done(now, c, d, Err(Outcome::DeadlineExceeded));
                    }
                }
                Stage::RetryBudget => {
                    if let Some(b) = self.client_rt[cl].retry_budget.as_mut() {
                        let ok = b.try_retry();
                        let v = b.milli_tokens() as i64;
                        if let Some(g) = self.stats.clients[cl].budget_g {
                            self.stats.rec.set(g, now, v);
                        }
                        if !ok {
                            self.stats.clients[cl].retry_budget_denied += 1;
                            self.stats.totals.retry_budget_denied += 1;
                            self.mark(c, d, MarkKind::RetryBudgetDenied, now, now);
                            return self.dep_done(now, c, d, Err(Outcome::BudgetDenied));
                        }
                    }
                }
                // No retry gate in these (`Stages::timer_only` relies on it, see above).
                Stage::Retry | Stage::Breaker | Stage::Timeout | Stage::Bulkhead => {}
            }
        }
        self.calls.dep_mut(c, d).prev_sleep = delay;
        if delay == 0 {
            self.attempt(now, c, d);
        } else {
            self.calls.dep_mut(c, d).state = DepState::Sleeping;
            self.sched(now, delay, Class::Timer, Ev::BackoffWake(c, d as u8, attempt));
            self.mark(c, d, MarkKind::Backoff, now, now.saturating_add(delay));
        }
        None
    }

    /// Dependency `d` has its final answer: `Ok(degraded cause)` or the failure. Returns
    /// call `c`'s reply if this was the last dependency it waited for.
    #[inline(always)]
    fn dep_done(
        &mut self,
        now: Micros,
        c: CallRef,
        d: usize,
        result: Result<Option<Degrade>, Outcome>,
    ) -> Option<Reply> {
        let di = self.calls.dep_index(c, d);
        self.dep_done_at(now, c, d, di, result)
    }

    /// [`dep_done`](Self::dep_done) with the record's place known (`Calls::dep_index`).
    #[inline(always)]
    fn dep_done_at(
        &mut self,
        now: Micros,
        c: CallRef,
        d: usize,
        di: usize,
        result: Result<Option<Degrade>, Outcome>,
    ) -> Option<Reply> {
        // The call and the dependency's record, looked up once (the first dependency's is
        // in the call's slot).
        let (call, dep) = self.calls.call_and_dep_at_mut(c, di);
        dep.state = DepState::Done;
        let cl = dep.client as usize;
        // Only a failure looks at the fallback (looked up only then: most answers succeed).
        let fallback = if result.is_err() { self.plan.clients[cl].fallback } else { None };
        let optional = fallback.is_some();
        let stale = matches!(fallback, Some(Fallback::Stale { .. }));
        call.pending -= 1;
        match result {
            Ok(Some(degrade)) => {
                call.degraded.get_or_insert(degrade);
            }
            Ok(None) => {}
            Err(o) if optional => {
                call.degraded.get_or_insert(Degrade { cause: o.failure().unwrap_or(Failure::Error), stale });
            }
            Err(o) => {
                call.core_failure.get_or_insert(o.failure().unwrap_or(Failure::Error));
            }
        }
        // Its answer, if this was the last dependency it waited for.
        let reply = (call.pending == 0).then(|| Reply {
            call: c,
            outcome: rules::layer_answer(call.core_failure),
            answer: Answer { degraded: call.degraded, empty: false },
        });
        if result.is_err() && optional {
            let kind = if stale { MarkKind::FallbackStale } else { MarkKind::FallbackUnavailable };
            self.mark(c, d, kind, now, now);
        }
        reply
    }

    /// Call `c` is being cancelled: dependency `d` gives back everything it holds.
    pub(super) fn cancel_dep(&mut self, now: Micros, c: CallRef, d: usize) {
        let dep = *self.calls.dep(c, d);
        let cl = dep.client as usize;
        if dep.state == DepState::InFlight && self.calls.valid(dep.child) {
            self.cancel_subtree(now, dep.child);
        }
        if dep.state == DepState::WaitingSlot && dep.slot == SlotKind::None {
            self.abandon_slot_wait(now, cl);
        }
        if dep.slot != SlotKind::None {
            self.calls.dep_mut(c, d).slot = SlotKind::None;
            self.release_slot(now, cl, dep.slot);
        }
        if let Some((inst, p)) = dep.permit {
            self.client_rt[cl].breakers[inst as usize].release(p);
        }
        self.calls.dep_mut(c, d).state = DepState::Done;
    }

    /// What client `cl`'s first breaker judges its rates on, for the diagram's badge
    /// (instance 0 stands for the others: they see the same kind of traffic).
    fn record_window(&mut self, now: Micros, cl: usize, inst: usize) {
        if inst == 0 {
            let t = self.client_rt[cl].breakers[0].tally(now);
            self.stats.breaker_window(now, cl, t.calls, t.failures);
        }
    }

    /// A breaker of client `cl` changed state: record it, and arm a timed breaker's
    /// half-open timer.
    pub(super) fn breaker_moved(&mut self, now: Micros, cl: usize, inst: usize, t: Transition) {
        let rt = &self.client_rt[cl];
        let open = rt.breakers.iter().filter(|b| b.state() == BreakerState::Open).count() as i64;
        let half = rt.breakers.iter().filter(|b| b.state() == BreakerState::HalfOpen).count() as i64;
        self.stats.breaker_moved(cl, inst, t, open, half);
        self.record_window(now, cl, inst);
        if let Some(at) = self.client_rt[cl].breakers[inst].half_open_at() {
            self.sched(now, at.saturating_sub(now), Class::Timer, Ev::BreakerTimer(cl as u16, inst as u16));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::chain::{DEFAULT_MAX_CALLS, run_with};
    use crate::policy::stack::Stage::{self, *};
    use crate::report::Report;
    use crate::scenario::{FaultEffect, Scenario, presets};

    /// The breaker demo with inventory slowed ×100 (mean 1 s) for 5 s, longer than the
    /// 300 ms per-try timeout: every slow call times out.
    fn slow_inventory(stack: Option<Vec<Stage>>) -> Report {
        let mut s: Scenario = presets::breaker_demo();
        s.faults[0].effect = FaultEffect::Latency { factor: 100.0 };
        s.layers[0].client.stack = stack;
        run_with(&s, 1, DEFAULT_MAX_CALLS).unwrap()
    }

    #[test]
    fn a_breaker_outside_the_timeout_records_timeouts_and_opens() {
        let r = slow_inventory(None);
        assert_eq!(r.clients[0].stack, vec![Breaker, Timeout], "the default order");
        assert!(r.summary.timeouts >= 20, "{}", r.summary.timeouts);
        assert!(!r.breaker_transitions.is_empty(), "the breaker saw the timeouts and opened");
        assert!(r.clients[0].breaker_rejected > 0);
    }

    #[test]
    fn a_breaker_inside_the_timeout_is_interrupted_and_never_sees_one() {
        let r = slow_inventory(Some(vec![Retry, Deadline, RetryBudget, Timeout, Breaker, Bulkhead]));
        assert_eq!(r.clients[0].stack, vec![Timeout, Breaker], "the order that ran");
        let outside = slow_inventory(None).summary.timeouts;
        assert!(
            r.summary.timeouts > 5 * outside,
            "nothing stops the timeouts: {} vs {outside}",
            r.summary.timeouts
        );
        assert!(r.breaker_transitions.is_empty(), "timeouts interrupt the breaker: it records nothing");
        assert_eq!(r.clients[0].breaker_rejected, 0);
    }

    #[test]
    fn refusals_by_the_callers_own_stages_are_not_retried() {
        // Every layer of chain-3x3 may try 3 times; a bulkhead of one with no queue refuses
        // most calls at once, and a refusal is final.
        let mut s = presets::chain_3x3();
        let c = &mut s.layers[0].client;
        c.bulkhead = Some(crate::policy::bulkhead::BulkheadConfig {
            max_concurrent: 1,
            max_queue: 0,
            queue_timeout_ms: None,
        });
        let r = run_with(&s, 1, DEFAULT_MAX_CALLS).unwrap();
        let cl = &r.clients[0];
        assert!(cl.bulkhead_rejected > 900, "{cl:?}");
        // Were a refusal retried, a request would collect several and the counts would differ.
        assert_eq!(
            r.summary.failed_by_cause.bulkhead_rejected, cl.bulkhead_rejected,
            "each refusal ends its request"
        );
        assert_eq!(
            cl.attempts,
            3 * (r.summary.original_requests - cl.bulkhead_rejected),
            "the rest try 3 times"
        );
    }
}
