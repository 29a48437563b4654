//! The attempt tree of one traced request: every call it caused down the chain, which call
//! made it, and where each branch stopped and why. Built from what the engine recorded in
//! the trace (each span names its caller, each caller-side mark names the calling call and
//! the dependency it is about), so nothing here restates a rule of the model.

use crate::report::{Mark, MarkKind, RequestOutcome, Span, Trace};

/// Why a caller stopped trying a dependency, as the engine marked it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopCause {
    /// Not enough deadline left for another attempt (checked before the backoff sleep).
    Deadline,
    /// The retry budget refused the retry.
    RetryBudget,
    /// The caller's open breaker refused the attempt.
    BreakerOpen,
    /// The caller's full bulkhead refused the attempt.
    BulkheadFull,
    /// The failed attempt was the last the retry policy allows.
    AttemptsExhausted,
    /// The failure is not one the policy retries (a 4xx, a kind left out of `retry_on`, a
    /// Retry-After of "never").
    NotRetryable,
}

impl StopCause {
    /// The stop a caller-side mark records, if it is one.
    pub fn of(kind: MarkKind) -> Option<StopCause> {
        Some(match kind {
            MarkKind::BudgetExhausted => StopCause::Deadline,
            MarkKind::RetryBudgetDenied => StopCause::RetryBudget,
            MarkKind::BreakerRejected => StopCause::BreakerOpen,
            MarkKind::BulkheadRejected => StopCause::BulkheadFull,
            MarkKind::AttemptsExhausted => StopCause::AttemptsExhausted,
            MarkKind::NotRetryable => StopCause::NotRetryable,
            MarkKind::Backoff
            | MarkKind::Timeout
            | MarkKind::FallbackStale
            | MarkKind::FallbackUnavailable => return None,
        })
    }
}

/// Where and why a branch stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stop {
    pub cause: StopCause,
    /// When (ms of virtual time).
    pub at_ms: f64,
}

/// One caller's attempts at one dependency.
#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    /// The hop called.
    pub callee: usize,
    /// The calls made, in order of arrival (node indices).
    pub attempts: Vec<usize>,
    /// The caller's events about this dependency: backoff sleeps, timed-out tries,
    /// refusals, fallbacks, in time order.
    pub events: Vec<Mark>,
    /// Where the caller stopped trying, if it did for one of the marked reasons (a branch
    /// whose last attempt succeeded, or whose caller was itself cancelled, has none).
    pub stop: Option<Stop>,
    /// A fallback answered for the dependency (stale or `unavailable`).
    pub fallback: Option<MarkKind>,
}

/// One call of the request.
#[derive(Clone, Debug, PartialEq)]
pub struct CallNode {
    /// The call as its callee saw it.
    pub span: Span,
    /// 0 for the entry call.
    pub depth: usize,
    /// Its dependencies' attempts, one branch per dependency it called or tried to.
    pub branches: Vec<Branch>,
}

impl CallNode {
    /// Every call it made, branch by branch.
    pub fn children(&self) -> impl Iterator<Item = usize> + '_ {
        self.branches.iter().flat_map(|b| b.attempts.iter().copied())
    }
}

/// The tree of one request.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptTree {
    /// The request's number (0 = first to arrive).
    pub request: u64,
    pub outcome: RequestOutcome,
    /// Arrival, end and deadline (ms of virtual time).
    pub arrival_ms: f64,
    pub end_ms: f64,
    pub deadline_ms: Option<f64>,
    /// Every call, entry first, then in order of arrival.
    pub nodes: Vec<CallNode>,
    /// Nodes with no recorded caller besides the entry: calls whose caller's span was not
    /// kept (past the trace's cap) or had not ended when the run stopped.
    pub detached: Vec<usize>,
    /// Spans and marks the trace did not keep.
    pub dropped: u64,
}

impl AttemptTree {
    /// The tree of `t`.
    pub fn of(t: &Trace) -> AttemptTree {
        let mut spans: Vec<&Span> = t.spans.iter().collect();
        crate::order::sort_by_key(&mut spans, |s| u64::from(s.id));
        let mut nodes: Vec<CallNode> =
            spans.iter().map(|s| CallNode { span: (*s).clone(), depth: 0, branches: Vec::new() }).collect();
        let ids: Vec<u32> = spans.iter().map(|s| s.id).collect();
        let index_of = |id: u32| ids.binary_search(&id).ok();
        let links: Vec<(usize, Option<usize>)> =
            (0..nodes.len()).map(|i| (i, nodes[i].span.parent.and_then(index_of))).collect();
        let mut detached = Vec::new();
        for &(i, parent) in &links {
            match parent {
                Some(p) => {
                    let callee = nodes[i].span.hop;
                    branch(&mut nodes[p], callee).attempts.push(i);
                }
                None if nodes[i].span.parent.is_some() => detached.push(i),
                None => {}
            }
        }
        // Marks join their caller's branch for the dependency they are about.
        let mut marks: Vec<&Mark> = t.marks.iter().collect();
        crate::order::sort_by_key(&mut marks, |m| crate::order::f64_key(m.start_ms));
        for m in marks {
            let Some(p) = index_of(m.call) else { continue };
            let b = branch(&mut nodes[p], m.callee);
            if let Some(cause) = StopCause::of(m.kind) {
                b.stop = Some(Stop { cause, at_ms: m.start_ms });
            }
            if matches!(m.kind, MarkKind::FallbackStale | MarkKind::FallbackUnavailable) {
                b.fallback = Some(m.kind);
            }
            b.events.push(m.clone());
        }
        // Depths, from the roots down (ids grow down the tree: a caller arrives first).
        for i in 0..nodes.len() {
            let d = nodes[i].depth;
            let kids: Vec<usize> = nodes[i].children().collect();
            for k in kids {
                nodes[k].depth = d + 1;
            }
        }
        AttemptTree {
            request: t.request,
            outcome: t.outcome,
            arrival_ms: t.arrival_ms,
            end_ms: t.end_ms,
            deadline_ms: t.deadline_ms,
            nodes,
            detached,
            dropped: t.dropped,
        }
    }

    /// Calls that reached hop `hop`.
    pub fn calls_at(&self, hop: usize) -> usize {
        self.nodes.iter().filter(|n| n.span.hop == hop).count()
    }

    /// Every branch with its caller's node index.
    pub fn branches(&self) -> impl Iterator<Item = (usize, &Branch)> {
        self.nodes.iter().enumerate().flat_map(|(i, n)| n.branches.iter().map(move |b| (i, b)))
    }

    /// The nodes in drawing order: depth first, each call's attempts in order, skipping
    /// the calls below any hop in `collapsed` (a node at a collapsed hop is drawn, its
    /// subtree is not); detached calls after the entry's tree.
    pub fn rows(&self, collapsed: &[usize]) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack: Vec<usize> = self
            .detached
            .iter()
            .rev()
            .copied()
            .chain(self.nodes.iter().position(|n| n.span.parent.is_none()))
            .collect();
        while let Some(i) = stack.pop() {
            out.push(i);
            if collapsed.contains(&self.nodes[i].span.hop) {
                continue;
            }
            let kids: Vec<usize> = self.nodes[i].children().collect();
            stack.extend(kids.into_iter().rev());
        }
        out
    }
}

/// The branch of `node` for `callee`, made if it is new.
fn branch(node: &mut CallNode, callee: usize) -> &mut Branch {
    match node.branches.iter().position(|b| b.callee == callee) {
        Some(k) => &mut node.branches[k],
        None => {
            node.branches.push(Branch {
                callee,
                attempts: Vec::new(),
                events: Vec::new(),
                stop: None,
                fallback: None,
            });
            node.branches.last_mut().expect("just pushed")
        }
    }
}

/// The time span two trees of one request (compare mode's sides, spanning `a` and `b` ms)
/// share, if one scale serves both: within [`SHARED_SPAN_RATIO`] of each other. Past it the
/// shorter tree would be a line at the start of the longer one's axis (an 18 ms request
/// beside one of 25 s), so each keeps its own.
pub fn shared_span(a: f64, b: f64) -> Option<f64> {
    let (lo, hi) = (a.min(b), a.max(b));
    (lo > 0.0 && hi <= lo * SHARED_SPAN_RATIO).then_some(hi)
}

/// How many times longer one side's tree may span than the other's and still share its
/// axis.
pub const SHARED_SPAN_RATIO: f64 = 10.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn traced(mut s: crate::scenario::Scenario, request: u64, seed: u64) -> Trace {
        s.report.trace_requests = vec![request];
        let r = crate::model::chain::run_with(&s, seed, 1e9).expect("runs");
        r.traces.into_iter().find(|t| t.request == request).expect("the asked-for request is traced")
    }

    #[test]
    fn two_sides_share_a_span_only_when_one_scale_serves_both() {
        assert_eq!(shared_span(120.0, 300.0), Some(300.0));
        assert_eq!(shared_span(300.0, 120.0), Some(300.0));
        assert_eq!(shared_span(18.0, 25_000.0), None, "an 18 ms tree beside a 25 s one keeps its own");
        assert_eq!(shared_span(0.0, 5.0), None, "a tree of no length has no scale to share");
    }

    #[test]
    fn an_always_failing_3x3_chain_makes_27_leaf_calls() {
        let mut s = presets::chain_3x3();
        s.leaf.error_rate = 1.0;
        let t = traced(s, 5, 1);
        let tree = AttemptTree::of(&t);
        assert_eq!(tree.dropped, 0);
        assert_eq!((tree.calls_at(0), tree.calls_at(1), tree.calls_at(2), tree.calls_at(3)), (1, 3, 9, 27));
        assert_eq!(tree.rows(&[]).len(), 40, "every call drawn once");
        assert_eq!(tree.rows(&[1]).len(), 4, "collapsing hop 1 hides what is below it");
        // Every caller gave up after its third attempt, for that reason.
        let stops: Vec<StopCause> = tree.branches().filter_map(|(_, b)| b.stop.map(|s| s.cause)).collect();
        assert_eq!(stops.len(), 13, "1 + 3 + 9 callers");
        assert!(stops.iter().all(|&c| c == StopCause::AttemptsExhausted), "{stops:?}");
        for n in &tree.nodes {
            assert_eq!(n.depth, n.span.hop, "a call's depth is its hop in a plain chain");
        }
    }

    #[test]
    fn a_succeeding_request_is_one_call_per_hop_with_no_stop() {
        let mut s = presets::chain_3x3();
        s.leaf.error_rate = 0.0;
        let tree = AttemptTree::of(&traced(s, 0, 1));
        assert_eq!(tree.nodes.len(), 4);
        assert_eq!(tree.outcome, RequestOutcome::Succeeded);
        assert!(tree.branches().all(|(_, b)| b.stop.is_none() && b.attempts.len() == 1));
    }
}
