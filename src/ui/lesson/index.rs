//! The lesson index (`?page=lessons`): every lesson with its source, length and steps, each a
//! real link (`?lesson=ID&step=N`), and the ways to run it (in class, presenting, as an
//! interviewer).

use crate::i18n::{Lang, T};
use crate::lesson::figures::{plain_text, plain_words};
use crate::lesson::{self, Lesson};
use crate::state::lesson::{LessonAt, Modes};
use yew::prelude::*;

fn link(l: &'static Lesson, step: usize, modes: Modes, lang: Lang) -> String {
    LessonAt { lesson: l, step, modes }.href(lang.code())
}

#[derive(Properties, PartialEq)]
pub struct LessonsProps {
    pub lang: Lang,
}

/// The index page.
#[component]
pub fn LessonsPage(props: &LessonsProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let items = lesson::all().iter().map(|l| {
        let minutes = l.minutes();
        let meta = [
            (!l.source.is_empty()).then(|| lang.f(T::LessonSource, &[("source", l.source)])),
            Some(lang.f(T::LessonStepCount, &[("n", &l.steps.len().to_string())])),
            (minutes > 0).then(|| lang.f(T::LessonMinutes, &[("m", &minutes.to_string())])),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ");
        let steps = l.steps.iter().enumerate().map(|(i, s)| {
            html! {
                <li><a id={format!("lesson-{}-step-{}", l.id, i + 1)} href={link(l, i, Modes::default(), lang)}>{ plain_text(s.title, lang, &s.query()) }</a></li>
            }
        });
        html! {
            <article class="panel lesson-entry" id={format!("lesson-{}", l.id)}>
                <h2><a href={link(l, 0, Modes::default(), lang)} id={format!("lesson-{}-start", l.id)}>{ plain_words(l.title, lang) }</a></h2>
                <p class="lesson-meta">{ meta }</p>
                <p>{ plain_words(l.summary, lang) }</p>
                <p class="row-buttons">
                    <a class="button" title={t(T::LessonStartHelp)} href={link(l, 0, Modes::default(), lang)}>{ t(T::LessonStart) }</a>
                    <a class="button secondary" id={format!("lesson-{}-present", l.id)} title={t(T::LessonPresentHelp)}
                        href={link(l, 0, Modes { present: true, ..Modes::default() }, lang)}>{ t(T::LessonPresent) }</a>
                    <a class="button secondary" id={format!("lesson-{}-interview", l.id)} title={t(T::LessonInterviewHelp)}
                        href={link(l, 0, Modes { interview: true, ..Modes::default() }, lang)}>{ t(T::LessonInterview) }</a>
                </p>
                <details>
                    <summary>{ t(T::LessonAllSteps) }</summary>
                    <ol class="lesson-steps">{ for steps }</ol>
                </details>
            </article>
        }
    });
    html! {
        <section class="page lessons" id="lessons" aria-labelledby="page-title">
            <h1 id="page-title">{ t(T::LessonsTitle) }</h1>
            <p class="intro">{ t(T::LessonsIntro) }</p>
            <p class="note" id="lessons-sources">{ t(T::LessonsSources) }</p>
            // What each lesson's three buttons open, said once here (each has it as its
            // tooltip too): a learner alone had not known what interview mode was.
            <ul class="note" id="lessons-modes">
                { for [(T::LessonStart, T::LessonStartHelp), (T::LessonPresent, T::LessonPresentHelp), (T::LessonInterview, T::LessonInterviewHelp)]
                    .into_iter()
                    .map(|(mode, help)| html! { <li>{ lang.f(T::LessonModeItem, &[("mode", t(mode)), ("help", t(help))]) }</li> }) }
            </ul>
            <div class="lesson-list">{ for items }</div>
            <section class="panel" id="lesson-keys">
                <h2>{ t(T::LessonKeysTitle) }</h2>
                <p>{ t(T::LessonKeysText) }</p>
            </section>
        </section>
    }
}
