//! The lessons, one file each. Each file holds one `LESSON`: its steps and their text in
//! both languages (`tr(English, 简体中文)`), with figures quoted as `{figure-id}`.

mod capacity;
mod field_guide;
mod interview;
mod metastable;
mod retry_storm;

use super::Lesson;

/// Every lesson, in the index's order: teaching order, from the one idea everything else
/// rests on (retries multiply) to the protections, capacity, the metastable region, and
/// the interview that uses them all.
pub const ALL: &[Lesson] =
    &[retry_storm::LESSON, field_guide::LESSON, capacity::LESSON, metastable::LESSON, interview::LESSON];
