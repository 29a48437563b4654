//! The lessons, one file each. Each file holds one `LESSON`: its steps and their text in
//! both languages (`tr(English, 简体中文)`), with figures quoted as `{figure-id}`.

mod capacity;
mod field_guide;
mod interview;
mod metastable;
mod retry_storm;

use super::Lesson;

/// Every lesson, in the index's order.
pub const ALL: &[Lesson] =
    &[interview::LESSON, field_guide::LESSON, retry_storm::LESSON, capacity::LESSON, metastable::LESSON];
