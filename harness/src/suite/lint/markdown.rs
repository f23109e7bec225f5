//! Markdown read as Markdown (pulldown-cmark) for lint: its ATX headings with their source
//! lines, and the lines fenced code covers, so a heading or a version line inside a code block
//! is code, not structure.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag};

/// A heading: its 0-based line, level (1–6) and source line as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    pub line: usize,
    pub level: usize,
    pub source: String,
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

fn line_at(starts: &[usize], offset: usize) -> usize {
    starts.partition_point(|&s| s <= offset).saturating_sub(1)
}

/// The headings of `text` outside code, in order.
pub fn headings(text: &str) -> Vec<Heading> {
    let starts = line_starts(text);
    let lines: Vec<&str> = text.split('\n').collect();
    Parser::new(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let line = line_at(&starts, range.start);
                Some(Heading {
                    line,
                    level: level_number(level),
                    source: lines
                        .get(line)
                        .map_or("", |l| l.trim_end_matches('\r'))
                        .to_string(),
                })
            }
            _ => None,
        })
        .collect()
}

fn level_number(l: HeadingLevel) -> usize {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// 0-based lines inside fenced code blocks, fences included.
pub fn fenced_lines(text: &str) -> std::collections::BTreeSet<usize> {
    let starts = line_starts(text);
    let mut out = std::collections::BTreeSet::new();
    for (event, range) in Parser::new(text).into_offset_iter() {
        if let Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) = event {
            let last = line_at(&starts, range.end.saturating_sub(1).max(range.start));
            out.extend(line_at(&starts, range.start)..=last);
        }
    }
    out
}

/// `text` with every fenced line blanked (line numbers kept).
pub fn without_fences(text: &str) -> String {
    let fenced = fenced_lines(text);
    if fenced.is_empty() {
        return text.to_string();
    }
    text.split('\n')
        .enumerate()
        .map(|(i, l)| if fenced.contains(&i) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_inside_a_fence_is_code() {
        let t = "## Identity\n\n```\n## Identity\n```\n\n~~~\n## Identity\n~~~\n";
        let h2: Vec<usize> = headings(t)
            .iter()
            .filter(|h| h.level == 2)
            .map(|h| h.line)
            .collect();
        assert_eq!(h2, vec![0]);
        assert_eq!(
            fenced_lines(t).into_iter().collect::<Vec<_>>(),
            vec![2, 3, 4, 6, 7, 8]
        );
    }
}
