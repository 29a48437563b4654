//! Which lesson step a link opens, and in which mode: `lesson=ID&step=N` (1-based), with
//! `present=1` (presenter mode), `notes=1` (the speaker-notes window), `interview=1` (the
//! interviewer's checklist) and `role=candidate` (the same state without the answers).

use crate::error::{Allowed, FieldError, clip};
use crate::lesson::{self, Lesson, Step};
use crate::query::Query;
use crate::state::app::SHELL_KEYS;

/// How a lesson step is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modes {
    /// Presenter mode: full screen, the step's figure large, keys of a clicker.
    pub present: bool,
    /// The speaker-notes window, kept in step with the presenting one.
    pub notes: bool,
    /// The interviewer's view: every prompt as a checklist, answers on demand.
    pub interview: bool,
    /// The candidate's view: no answers, no reveal.
    pub candidate: bool,
}

/// A lesson step the app is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LessonAt {
    pub lesson: &'static Lesson,
    /// 0-based.
    pub step: usize,
    pub modes: Modes,
}

impl LessonAt {
    /// The step shown.
    pub fn step(&self) -> &'static Step {
        &self.lesson.steps[self.step]
    }

    /// The step `to` of the same lesson (clamped), same modes.
    pub fn go(self, to: usize) -> LessonAt {
        LessonAt { step: to.min(self.lesson.steps.len() - 1), ..self }
    }

    /// Writes `lesson`, `step` and the modes into `q`.
    pub fn write(&self, q: &mut Query) {
        q.set("lesson", self.lesson.id);
        q.set("step", (self.step + 1).to_string());
        for (key, on, value) in [
            ("present", self.modes.present, "1"),
            ("notes", self.modes.notes, "1"),
            ("interview", self.modes.interview, "1"),
            ("role", self.modes.candidate, "candidate"),
        ] {
            if on {
                q.set(key, value);
            } else {
                q.remove(key);
            }
        }
    }

    /// The link to this step, in `lang`, starting from the step's own state (`?lesson=…`
    /// without `page=`, so the step's link is read afresh).
    pub fn href(&self, lang: &str) -> String {
        let mut q = Query::new();
        q.set("lesson", self.lesson.id);
        q.set("step", (self.step + 1).to_string());
        q.set("lang", lang);
        self.write(&mut q);
        q.to_query_string()
    }

    /// The query the pages start from: the link itself when it carries a page state
    /// (`page=`, as the app writes it, so a reload keeps what the learner changed), else the
    /// step's state with the link's shell keys.
    pub fn start_query(&self, link: &Query) -> Query {
        if link.get("page").is_some() {
            return link.clone();
        }
        let mut q = self.step().query();
        for key in SHELL_KEYS {
            if let Some(v) = link.get(key) {
                q.set(key, v);
            }
        }
        q
    }
}

/// What a link says about lessons: the step it opens (if any) and what it got wrong.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LessonLink {
    pub at: Option<LessonAt>,
    pub errors: Vec<FieldError>,
}

fn flag(q: &Query, key: &'static str, errors: &mut Vec<FieldError>) -> bool {
    match q.get(key) {
        None | Some("" | "0") => false,
        Some("1") => true,
        Some(v) => {
            errors.push(FieldError::new(
                key,
                clip(v),
                Allowed::OneOf { choices: vec!["0".into(), "1".into()] },
            ));
            false
        }
    }
}

/// Reads `lesson`, `step` and the modes.
pub fn read(q: &Query) -> LessonLink {
    let mut errors = Vec::new();
    let Some(id) = q.get("lesson").filter(|v| !v.is_empty()) else {
        return LessonLink::default();
    };
    let Some(lesson) = lesson::find(id) else {
        let choices = lesson::all().iter().map(|l| l.id.to_string()).collect();
        errors.push(FieldError::new("lesson", clip(id), Allowed::OneOf { choices }));
        return LessonLink { at: None, errors };
    };
    let n = lesson.steps.len();
    let step = match q.get("step") {
        None | Some("") => 0,
        Some(v) => match v.trim().parse::<usize>() {
            Ok(s) if (1..=n).contains(&s) => s - 1,
            _ => {
                errors.push(FieldError::new("step", clip(v), Allowed::integer(1, n as u64)));
                0
            }
        },
    };
    let present = flag(q, "present", &mut errors);
    let notes = flag(q, "notes", &mut errors);
    let interview = flag(q, "interview", &mut errors);
    let candidate = match q.get("role") {
        None | Some("") => false,
        Some("candidate") => true,
        Some(v) => {
            errors.push(FieldError::new(
                "role",
                clip(v),
                Allowed::OneOf { choices: vec!["candidate".into()] },
            ));
            false
        }
    };
    let modes = Modes { present, notes, interview: interview && !candidate, candidate };
    LessonLink { at: Some(LessonAt { lesson, step, modes }), errors }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_step_and_its_modes() {
        let l = read(&Query::parse("?lesson=interview&step=3&present=1"));
        let at = l.at.expect("a step");
        assert_eq!((at.lesson.id, at.step, at.modes.present, at.modes.notes), ("interview", 2, true, false));
        assert!(l.errors.is_empty());
        assert_eq!(read(&Query::parse("?page=storm")), LessonLink::default());
    }

    #[test]
    fn bad_values_are_named_and_fall_back() {
        let l = read(&Query::parse("?lesson=interview&step=99&present=yes&role=boss"));
        let at = l.at.expect("the lesson still opens");
        assert_eq!(at.step, 0);
        let fields: Vec<&str> = l.errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["step", "present", "role"]);
        let l = read(&Query::parse("?lesson=nope"));
        assert!(l.at.is_none());
        assert_eq!(l.errors[0].field, "lesson");
    }

    #[test]
    fn the_step_state_is_read_unless_the_link_has_a_page_state() {
        let at = read(&Query::parse("?lesson=interview&step=2&lang=zh")).at.expect("a step");
        let q = at.start_query(&Query::parse("?lesson=interview&step=2&lang=zh"));
        assert_eq!(q.get("page"), Some("calculator"));
        assert_eq!(q.get("attempts"), Some("3,3"));
        assert_eq!(q.get("lang"), Some("zh"));
        let edited = Query::parse("?page=calculator&attempts=2,2&lesson=interview&step=2");
        assert_eq!(
            at.start_query(&edited).get("attempts"),
            Some("2,2"),
            "a reload keeps the learner's change"
        );
        assert!(at.href("en").starts_with("?lesson=interview&step=2"));
    }

    #[test]
    fn a_candidate_never_gets_the_interviewer_view() {
        let at = read(&Query::parse("?lesson=interview&interview=1&role=candidate")).at.expect("a step");
        assert!(at.modes.candidate && !at.modes.interview);
        let mut q = Query::new();
        at.write(&mut q);
        assert_eq!((q.get("role"), q.get("interview")), (Some("candidate"), None));
    }
}
