//! A worker's share of a sweep: the cells it was given, run one after the other in slices,
//! their verdicts posted as they finish (so the map fills in while it runs).

use super::page::StabilityState;
use super::{CellResult, Sweep};
use crate::model::chain::ChainSim;
use crate::model::stability::{Outcome, Verdict, Windows, classify};
use crate::query::Query;
use crate::state::runs::{BROWSER_MAX_CALLS, Reply, RunError};
use crate::wire::{Reader, Wire, Writer, wire_struct, wire_unit_enum};

/// Run these cells of a stability page's sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRequest {
    /// Increases with every request a page makes; a newer one replaces an older one.
    pub id: u64,
    /// The stability page's run query (`StabilityState::run_query`).
    pub query: String,
    /// Cells to run: (index, with the protection).
    pub cells: Vec<(u32, bool)>,
}

/// One finished cell, as it travels back.
#[derive(Clone, Debug, PartialEq)]
pub struct CellDone {
    pub index: u32,
    pub protected: bool,
    pub result: CellResult,
}

wire_unit_enum!(Outcome { Recovered, Draining, Stuck, Overloaded });
wire_struct!(Verdict { outcome, recovered_after_ms, before, after });
wire_struct!(SweepRequest { id, query, cells });
wire_struct!(CellDone { index, protected, result });

/// Events a slice handles between looks at the clock.
const EVENTS_PER_CHECK: u64 = 2_000;

/// A sweep request being run.
pub struct SweepBatch {
    id: u64,
    sweep: Sweep,
    todo: std::vec::IntoIter<(u32, bool)>,
    current: Option<(u32, bool, ChainSim, Windows)>,
    total: usize,
    finished: usize,
}

impl SweepBatch {
    pub fn new(req: &SweepRequest) -> SweepBatch {
        let sweep = StabilityState::from_query(&Query::parse(&req.query)).sweep;
        SweepBatch {
            id: req.id,
            sweep,
            todo: req.cells.clone().into_iter(),
            current: None,
            total: req.cells.len(),
            finished: 0,
        }
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// Runs cells while `more_time()` says so; returns the cells finished in this slice (as
    /// a reply, if any) and whether every cell is done.
    pub fn step(&mut self, mut more_time: impl FnMut() -> bool) -> (Option<Reply>, bool) {
        let mut done = Vec::new();
        loop {
            if self.current.is_none() {
                let Some((index, protected)) = self.todo.next() else { break };
                match self.sweep.cell(index as usize, protected) {
                    Ok(c) => match ChainSim::new(&c.scenario, c.seed, BROWSER_MAX_CALLS) {
                        Ok(sim) => self.current = Some((index, protected, sim, c.windows)),
                        Err(e) => done.push(CellDone { index, protected, result: Err(e.into()) }),
                    },
                    Err(e) => done.push(CellDone { index, protected, result: Err(RunError::Invalid(e)) }),
                }
                continue;
            }
            let Some((index, protected, sim, windows)) = self.current.as_mut() else { break };
            let (index, protected, windows) = (*index, *protected, *windows);
            match sim.step(EVENTS_PER_CHECK) {
                Ok(true) => {
                    let (_, _, sim, _) = self.current.take().expect("a cell is running");
                    done.push(CellDone {
                        index,
                        protected,
                        result: Ok(classify(&sim.finish().series, windows)),
                    });
                }
                Ok(false) => {}
                Err(e) => {
                    self.current = None;
                    done.push(CellDone { index, protected, result: Err(e.into()) });
                }
            }
            if !more_time() {
                break;
            }
        }
        self.finished += done.len();
        let all = self.finished >= self.total;
        let reply = (!done.is_empty() || all).then_some(Reply::Cells { id: self.id, cells: done, done: all });
        (reply, all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_travels_as_itself() {
        // A draining verdict once travelled as recovered: the page drew the budget overlay's
        // still-draining cells as recovered where lab sweep printed them draining.
        for outcome in [Outcome::Recovered, Outcome::Draining, Outcome::Stuck, Outcome::Overloaded] {
            let v = Verdict { outcome, recovered_after_ms: None, before: 1.0, after: 0.5 };
            let c = CellDone { index: 7, protected: true, result: Ok(v) };
            assert_eq!(crate::wire::decode::<CellDone>(&crate::wire::encode(&c)), Some(c));
        }
    }

    #[test]
    fn cells_stepped_in_slices_equal_cells_run_whole() {
        let st = StabilityState::from_query(&Query::parse(
            "?x=utilisation%3D0.3..0.9%2F2&y=trigger_ms%3D200..800%2F2",
        ));
        let req =
            SweepRequest { id: 3, query: st.run_query(), cells: vec![(0, false), (3, false), (1, true)] };
        let back = crate::wire::decode::<SweepRequest>(&crate::wire::encode(&req)).expect("round trip");
        assert_eq!(back, req);
        let mut batch = SweepBatch::new(&req);
        let mut got = Vec::new();
        loop {
            let mut budget = 2;
            let (reply, all) = batch.step(|| {
                budget -= 1;
                budget > 0
            });
            if let Some(Reply::Cells { id, cells, .. }) = reply {
                assert_eq!(id, 3);
                got.extend(cells);
            }
            if all {
                break;
            }
        }
        assert_eq!(got.len(), 3);
        for c in got {
            assert_eq!(c.result, st.sweep.run_cell(c.index as usize, c.protected), "cell {}", c.index);
        }
    }
}
