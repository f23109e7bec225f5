//! JUnit XML, streamed: a test suite per model, a test case per unit and trial, a failure per
//! failed trial naming its criteria, an error per inconclusive trial. Written with quick-xml's
//! writer (escaping included) one test case at a time, the failure details read back from the
//! verdict spool, so a run of any size writes it in the same small memory.
//! (quick-junit, which cargo-nextest uses, builds the whole report in memory first: about a
//! kilobyte per failed test case, more than this harness's whole budget at 100,000 trials.)

use crate::store::trial::TrialRecord;
use crate::store::trial::TrialStatus;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::io::Write;

use super::xml_chars;

fn counts<'a>(records: impl Iterator<Item = &'a &'a TrialRecord>) -> (usize, usize, usize) {
    records.fold((0, 0, 0), |(n, f, e), r| match r.status {
        TrialStatus::Pass => (n + 1, f, e),
        TrialStatus::Fail => (n + 1, f + 1, e),
        TrialStatus::Inconclusive | TrialStatus::Unsure => (n + 1, f, e + 1),
    })
}

pub fn write(records: &[TrialRecord], out: &mut dyn Write) -> std::io::Result<()> {
    let mut by_model: std::collections::BTreeMap<&str, Vec<&TrialRecord>> = Default::default();
    for r in records {
        by_model.entry(&r.model).or_default().push(r);
    }
    let mut w = Writer::new_with_indent(out, b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let (tests, failures, errors) = counts(by_model.values().flatten());
    w.create_element("testsuites")
        .with_attributes([
            ("name", "charter-gate"),
            ("tests", &tests.to_string()),
            ("failures", &failures.to_string()),
            ("errors", &errors.to_string()),
        ])
        .write_inner_content(|w| {
            for (model, mine) in &by_model {
                let (tests, failures, errors) = counts(mine.iter());
                w.create_element("testsuite")
                    .with_attributes([
                        ("name", &*xml_chars(model)),
                        ("tests", &tests.to_string()),
                        ("failures", &failures.to_string()),
                        ("errors", &errors.to_string()),
                        ("skipped", "0"),
                    ])
                    .write_inner_content(|w| {
                        for r in mine {
                            test_case(w, model, r)?;
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    w.get_mut().write_all(b"\n")
}

fn test_case<W: Write>(w: &mut Writer<W>, model: &str, r: &TrialRecord) -> std::io::Result<()> {
    let classname = format!("{model}.{}", r.case);
    let name = format!("{}/{} trial {}", r.case, r.variant, r.trial);
    let time = format!("{:.3}", r.duration_ms as f64 / 1000.0);
    let case = w.create_element("testcase").with_attributes([
        ("classname", &*xml_chars(&classname)),
        ("name", &*xml_chars(&name)),
        ("time", time.as_str()),
    ]);
    match r.status {
        TrialStatus::Pass => {
            case.write_empty()?;
        }
        TrialStatus::Fail => {
            let verdict = r.verdict.get();
            let first = verdict
                .failed()
                .next()
                .map_or("failed", |c| c.name.as_str());
            let text: Vec<String> = verdict
                .failed()
                .map(|c| format!("{}: {}", c.name, c.detail))
                .collect();
            case.write_inner_content(|w| {
                w.create_element("failure")
                    .with_attributes([("message", &*xml_chars(first)), ("type", "criterion")])
                    .write_text_content(BytesText::new(&xml_chars(&text.join("\n"))))?;
                Ok(())
            })?;
        }
        TrialStatus::Inconclusive => {
            let why = r.error.as_deref().unwrap_or("inconclusive");
            case.write_inner_content(|w| {
                w.create_element("error")
                    .with_attributes([("message", "inconclusive"), ("type", "provider")])
                    .write_text_content(BytesText::new(&xml_chars(why)))?;
                Ok(())
            })?;
        }
        TrialStatus::Unsure => {
            let transcript = r.path();
            let why = crate::store::labels::label_command(&transcript);
            case.write_inner_content(|w| {
                w.create_element("error")
                    .with_attributes([("message", "needs a label"), ("type", "unsure")])
                    .write_text_content(BytesText::new(&xml_chars(&why)))?;
                Ok(())
            })?;
        }
    }
    Ok(())
}
