//! Document structure: the statements of a document with what scopes them.
//!
//! Real documents say much of what a sentence means in the lines above it: a section
//! heading ("Pregnancy", "4.3.1 Children") scopes every sentence under it, a lead-in
//! ("Imojev is not suitable for:") gives each list item below it its verb, and a
//! table's header row names the columns of every row. Each statement carries that
//! scope so that a reader can see "pregnant people" under "not suitable for:" as a
//! warning, and "Individuals aged 14 years and older …" under "4.3.1 Children" as
//! a statement about children.

use std::ops::Range;

use crate::language::Tag;
use crate::lexicon::Class;
use crate::text::{split_sentences, Span};

/// What kind of line a statement came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A heading: a short line without closing punctuation.
    Heading,
    /// A heading-shaped line right under another: a subheading, or a cell of a table
    /// pasted one cell per line. It scopes the lines under it as a heading does and,
    /// unlike a heading, says something itself ("Reduce to 25 mg once daily").
    Cell,
    /// A sentence of running text.
    Sentence,
    /// A list item (bullet or number), scoped by the lead-in above it when one ends
    /// with a colon.
    Item,
    /// A table row (cells separated by `|`).
    Row,
}

/// One statement of a document: a sentence, list item, table row or heading.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    pub span: Span,
    pub text: String,
    pub kind: Kind,
    /// The headings above it, outermost first: the document's title, then the headings
    /// in a row over its section (see [`MAX_HEADING_RUN`]).
    pub headings: Vec<String>,
    /// Whether the first of `headings` is the outermost heading over the statement (the
    /// document's title, or the first of a run of headings), which names what the text
    /// under it is about rather than whom it is for; a run-in heading alone is not.
    pub titled: bool,
    /// The lead-in sentence a list item completes ("… is not suitable for:").
    pub lead: Option<String>,
    /// A table row's cells under the names its header row gives their columns ("2 mg"
    /// under "Maximum Recommended Dosage: Greater than 65 years"); empty for a row of a
    /// table without a header row, and for every other statement.
    pub columns: Vec<Column>,
}

/// One cell of a table row: its bytes in the row's text and its column's name.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub range: Range<usize>,
    pub name: String,
}

impl Statement {
    /// Its text with its scope: headings, lead-in, then the statement.
    pub fn in_scope(&self) -> String {
        let mut out = String::new();
        for h in &self.headings {
            out.push_str(h);
            out.push_str(". ");
        }
        if let Some(lead) = &self.lead {
            out.push_str(lead);
            out.push(' ');
        }
        out.push_str(&self.text);
        out
    }

    /// The index of the cell that holds byte `at` of the text (see [`Statement::column_at`]).
    pub fn cell_at(&self, at: usize) -> Option<usize> {
        self.column_at(at).map(|(i, _)| i)
    }

    /// The index and column of the cell that holds byte `at` of the text, in a row of
    /// a table with a header row.
    pub fn column_at(&self, at: usize) -> Option<(usize, &Column)> {
        self.columns
            .iter()
            .enumerate()
            .find(|(_, c)| c.range.start <= at && at < c.range.end.max(c.range.start + 1))
    }
}

/// Whether a line is a table's row: cells between "|", none of them prose of several
/// sentences (a page flattened onto one line keeps its tables' bars in running text).
fn is_row(line: &str) -> bool {
    line.contains('|')
        && line
            .split('|')
            .all(|cell| split_sentences(cell).len() < MAX_CELL_SENTENCES)
}

/// Sentences from which a cell is prose, not a table's cell.
const MAX_CELL_SENTENCES: usize = 3;

/// How a reader takes a document's lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// As its writers laid it out: headings, list lead-ins and table rows scope the
    /// statements under them ([`statements`]).
    #[default]
    Structured,
    /// As one run of sentences, each standing alone: what a reader sees without the
    /// structure (the ablation that measures what reading it is worth).
    Flat,
}

/// The statements of one document as `layout` reads them.
pub fn statements_in(layout: Layout, doc: usize, text: &str) -> Vec<Statement> {
    match layout {
        Layout::Structured => statements(doc, text),
        Layout::Flat => split_sentences(text)
            .into_iter()
            .filter_map(|range| {
                let piece = text.get(range.clone())?.trim();
                (!piece.is_empty()).then(|| Statement {
                    span: Span { doc, range },
                    text: piece.to_string(),
                    kind: Kind::Sentence,
                    headings: Vec::new(),
                    titled: false,
                    lead: None,
                    columns: Vec::new(),
                })
            })
            .collect(),
    }
}

/// Reads run-in headings: a paragraph that opens with a short phrase closed by a full
/// stop ("Acne in pregnancy. Oral isotretinoin is contraindicated …", "Renal
/// impairment. Reduce the dose …") titles the rest of the paragraph, as a heading on a
/// line of its own titles the lines under it. The phrase is verbless, so it is a
/// title and not a sentence ("Avoid in pregnancy." and "Not recommended." say
/// something). `tags` holds each statement's word tags; `docs` the documents' texts.
pub fn run_in_headings(statements: &mut [Statement], tags: &[&[Tag]], docs: &[&str]) {
    let same_line = |a: &Statement, b: &Statement| {
        a.span.doc == b.span.doc
            && docs
                .get(a.span.doc)
                .and_then(|d| d.get(a.span.range.end..b.span.range.start))
                .is_some_and(|between| !between.contains('\n'))
    };
    let mut i = 0;
    while i + 1 < statements.len() {
        let opens_line = i == 0 || !same_line(&statements[i - 1], &statements[i]);
        let titled = opens_line
            && matches!(statements[i].kind, Kind::Sentence | Kind::Item)
            && same_line(&statements[i], &statements[i + 1])
            && tags
                .get(i)
                .is_some_and(|t| is_title(&statements[i].text, t));
        if !titled {
            i += 1;
            continue;
        }
        let title = statements[i].text.trim_end_matches('.').trim().to_string();
        statements[i].kind = Kind::Heading;
        let mut j = i + 1;
        while j < statements.len() && same_line(&statements[j - 1], &statements[j]) {
            if statements[j].headings.is_empty() {
                statements[j].titled = false;
            }
            statements[j].headings.push(title.clone());
            j += 1;
        }
        i = j;
    }
}

/// Whether a sentence reads as a run-in title: a few words closed by a full stop,
/// opening with a capital on a noun, adjective or gerund, naming something and
/// asserting nothing (no finite verb, no bare verb, no negation).
fn is_title(text: &str, tags: &[Tag]) -> bool {
    let text = text.trim();
    let words = text.split_whitespace().count();
    let first = text.split_whitespace().next().unwrap_or("");
    words > 0
        && words <= MAX_TITLE_WORDS
        && text.ends_with('.')
        && !text[..text.len() - 1].contains(['.', ':', ';', ','])
        && first.chars().next().is_some_and(char::is_uppercase)
        && !matches!(first, "Not" | "No" | "None" | "Never")
        && tags.first().is_some_and(|t| t.is_noun() || t.is_adjective() || *t == Tag::Vbg)
        && !tags.iter().any(|t| t.is_finite_verb() || *t == Tag::Vb)
        // A noun phrase: its head, last before any preposition, is a noun ("Acne | in
        // pregnancy", "Renal impairment"), which "Levels double." is not.
        && tags[..tags.len().saturating_sub(1)]
            .iter()
            .take_while(|t| !matches!(t, Tag::In | Tag::To))
            .last()
            .is_some_and(|t| t.is_noun() || *t == Tag::Vbg)
}

/// Longest run-in title, in words ("Use in patients with hepatic impairment.").
const MAX_TITLE_WORDS: usize = 7;

/// Longest line, in words, that can be a heading.
const MAX_HEADING_WORDS: usize = 12;

/// Most headings in a row that scope the lines under them: a heading with a few levels
/// of subheadings, or a pasted table's header and the first cells of one of its rows.
const MAX_HEADING_RUN: usize = 8;

/// The statements of one document, in order.
pub fn statements(doc: usize, text: &str) -> Vec<Statement> {
    let lines = rows_joined(text, lines(text));
    let mut out = Vec::new();
    let mut title: Option<String> = None;
    // The headings since the last line of text: a section heading with its
    // subheadings, or the cells of a table pasted one per line (its header's column
    // names, then a row's first cells), each scoping the lines under it.
    let mut sections: Vec<String> = Vec::new();
    let mut after_heading = false;
    let mut lead: Option<(String, Marker)> = None;
    // The column names of the table being read, from its header row.
    let mut header: Option<Vec<String>> = None;
    for (i, line) in lines.iter().enumerate() {
        let body = &text[line.clone()];
        if !is_row(body) {
            header = None;
        }
        let marker = Marker::of(body);
        let followed = lines.get(i + 1).is_some();
        // A question over a list ("Who should not be vaccinated with it?" / "• Children
        // younger than 2 years" …) is answered by the list: it leads it.
        let asks_over_list = body.trim_end().ends_with('?')
            && lines
                .get(i + 1)
                .is_some_and(|l| Marker::of(&text[l.clone()]) != Marker::None);
        let leads = is_lead_in(body) || asks_over_list;
        // A lead-in left open by its preposition takes the unmarked lines under it, one
        // item each, up to a line that closes a sentence or leads a list of its own. (A
        // colon may close a label as well as lead a list: the unmarked lines under one
        // are read as what they look like.)
        let opens_lower = body.chars().next().is_some_and(char::is_lowercase);
        let unmarked_item = marker == Marker::None
            && match lead {
                Some((_, Marker::Open)) => true,
                Some((_, Marker::Any)) => opens_lower,
                _ => false,
            }
            && !leads
            && !body.trim_end().ends_with(['.', '!', '?']);
        // A list lead-in scopes the items that follow it while their markers continue.
        if let Some((_, expected)) = &lead {
            if !marker.continues(expected) || (marker == Marker::None && !unmarked_item) {
                lead = None;
            }
        }
        if marker == Marker::None && !unmarked_item && !leads && is_heading(body) && followed {
            // The second and later lines of a run are subheadings or a pasted table's
            // cells: scoped by the run above them, and read for what they say.
            let cell = after_heading;
            let above: Vec<String> = match cell {
                true => title.iter().chain(sections.iter()).cloned().collect(),
                false => title.iter().filter(|t| *t != body).cloned().collect(),
            };
            if title.is_none() && out.is_empty() {
                title = Some(body.to_string());
            } else {
                if !after_heading {
                    // A value keying the next rows of a flattened table replaces the
                    // key before it, under the same column names.
                    if is_value_key(body) {
                        while sections.last().is_some_and(|s| is_value_key(s)) {
                            sections.pop();
                        }
                    } else {
                        sections.clear();
                    }
                }
                sections.push(strip_numbering(body).to_string());
                let over = sections.len().saturating_sub(MAX_HEADING_RUN);
                sections.drain(..over);
                after_heading = true;
            }
            out.push(Statement {
                span: Span {
                    doc,
                    range: line.clone(),
                },
                text: body.to_string(),
                kind: if cell { Kind::Cell } else { Kind::Heading },
                titled: !above.is_empty(),
                headings: above,
                lead: None,
                columns: Vec::new(),
            });
            continue;
        }
        after_heading = false;
        let headings: Vec<String> = title.iter().chain(sections.iter()).cloned().collect();
        let item_lead = match (&lead, marker) {
            (Some((text, _)), m) if m != Marker::None || unmarked_item => Some(text.clone()),
            _ => None,
        };
        let kind = if is_row(body) {
            Kind::Row
        } else if marker != Marker::None || unmarked_item {
            Kind::Item
        } else {
            Kind::Sentence
        };
        let content_start = line.start + marker.width(body);
        let content = content_start..line.end;
        // A list item of several sentences is several statements, each under the
        // item's lead-in ("• X is licensed for adults. Y is licensed for people aged 12
        // years and older."); a row is one.
        let pieces: Vec<Range<usize>> = match kind {
            Kind::Row => vec![content],
            _ => split_sentences(&text[content.clone()])
                .into_iter()
                .map(|r| r.start + content.start..r.end + content.start)
                .collect(),
        };
        for range in pieces {
            let Some(piece) = text.get(range.clone()) else {
                continue;
            };
            let piece = piece.trim();
            if piece.is_empty() {
                continue;
            }
            out.push(Statement {
                span: Span {
                    doc,
                    range: range.clone(),
                },
                text: piece.to_string(),
                kind,
                headings: headings.clone(),
                titled: !headings.is_empty(),
                lead: item_lead.clone(),
                columns: match (kind, &header) {
                    (Kind::Row, Some(names)) => cells(piece)
                        .into_iter()
                        .zip(names)
                        .filter(|(range, name)| !range.is_empty() && !name.is_empty())
                        .map(|(range, name)| Column {
                            range,
                            name: name.clone(),
                        })
                        .collect(),
                    _ => Vec::new(),
                },
            });
        }
        // A row over a rule ("---|---") is its table's header: it names the columns of
        // the rows under it.
        if kind == Kind::Row && header_above_rule(text, &lines, i) {
            header = Some(
                cells(body)
                    .into_iter()
                    .map(|r| body[r].to_string())
                    .collect(),
            );
        }
        // A lead-in leads the list below it.
        if leads {
            let expected = match lines.get(i + 1).map(|l| Marker::of(&text[l.clone()])) {
                Some(Marker::Number(_)) => Marker::Number(0),
                Some(m @ Marker::Bullet(_)) => m,
                _ if !body.trim_end().ends_with(':') => Marker::Open,
                _ => Marker::Any,
            };
            lead = Some((lead_text(body), expected));
        } else if let Some((_, expected)) = &mut lead {
            if marker != Marker::None {
                *expected = marker;
            }
        }
    }
    out
}

/// The cells of a table row, as byte ranges of its text trimmed of spaces: what the
/// bars separate, without the empty piece before a bar that opens the row.
fn cells(row: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in row.split('|') {
        let end = start + piece.len();
        let lead = piece.len() - piece.trim_start().len();
        let trimmed = piece.trim();
        if !(start == 0 && trimmed.is_empty() && row.trim_start().starts_with('|')) {
            out.push(start + lead..start + lead + trimmed.len());
        }
        start = end + 1;
    }
    out
}

/// Whether line `i` is a table's header row: a row with a rule of bars and dashes under
/// it ("---|---|---"), as tables are written in plain text.
fn header_above_rule(text: &str, lines: &[Range<usize>], i: usize) -> bool {
    let Some(line) = lines.get(i) else {
        return false;
    };
    let end = lines.get(i + 1).map_or(text.len(), |next| next.start);
    text.get(line.end..end).is_some_and(|between| {
        between.lines().any(|l| {
            let l = l.trim();
            l.contains('|')
                && l.contains("---")
                && l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
        })
    })
}

/// The lines with each row of a table whose rows open with a bar joined to the lines
/// that carry it on: a cell's text wrapped onto a line of its own ("| Dapsone | 100 mg
/// daily |" / "Screen for G6PD deficiency prior to use. |") belongs to its row.
fn rows_joined(text: &str, lines: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::with_capacity(lines.len());
    // Whether the table being read opens its rows with a bar.
    let mut barred = false;
    for (i, line) in lines.iter().enumerate() {
        let body = &text[line.clone()];
        if barred && body.contains('|') && !body.starts_with('|') {
            if let Some(last) = out.last_mut() {
                last.end = line.end;
                continue;
            }
        }
        if !body.contains('|') {
            barred = false;
        }
        if body.contains('|') && header_above_rule(text, &lines, i) {
            barred = body.starts_with('|');
        }
        out.push(line.clone());
    }
    out
}

/// Whether a line leads the lines under it as its list: it ends with a colon, or with a
/// preposition whose object the lines below complete ("An induration of 5 mm or more is
/// considered positive for" / "HIV-infected persons" / …).
pub fn is_lead_in(line: &str) -> bool {
    let line = line.trim_end();
    // "The following groups of women … should ask for a higher dose": what follows
    // is what the line speaks of.
    let lower = format!(" {} ", crate::text::lower_words(line).join(" "));
    line.ends_with(':')
        || lower.contains(" the following ")
        || lower.contains(" as follows ")
        || ends_with_preposition(line)
}

/// Byte ranges of the non-empty lines, trimmed.
fn lines(text: &str) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    let mut open_list = false;
    for piece in text.split_inclusive('\n') {
        let end = start + piece.len();
        let raw = &text[start..end];
        let lead = raw.len() - raw.trim_start().len();
        let trimmed = raw.trim();
        // A line with no letter or digit ("|" between cells pasted one per line, a
        // rule "----") separates what is around it and says nothing itself.
        if trimmed.chars().any(char::is_alphanumeric) {
            let range = start + lead..start + lead + trimmed.len();
            // The lines under a lead-in left open by its preposition are its items, each
            // on its own line, up to one that closes a sentence.
            let above = out.last().map(|r| &text[r.clone()]);
            // … and so are the lines in lower case under a lead-in that ends with a
            // colon ("You may have a higher chance if:" / "you have diabetes"): a line
            // that opens in lower case completes the lead-in, as no heading or label
            // opens.
            let opens_lower = trimmed.chars().next().is_some_and(char::is_lowercase);
            if above.is_some_and(|a| {
                (ends_with_preposition(a) && !wrapped(a, trimmed))
                    || (a.ends_with(':') && opens_lower)
            }) {
                open_list = true;
            } else if above.is_some_and(closes) {
                open_list = false;
            }
            match out.last_mut() {
                Some(previous) if !open_list && continues(&text[previous.clone()], trimmed) => {
                    previous.end = range.end;
                }
                _ => out.push(range),
            }
        }
        start = end;
    }
    out
}

/// Whether a line carries on the sentence of the line above it, as text copied from a
/// page laid out in columns does ("Tetracyclines are not" / "recommended for pregnant
/// women …"): it opens with a lower-case letter, is no list item, and the line above
/// does not close (the items under a lead-in left open by its preposition are kept
/// apart by [`lines`]).
fn continues(above: &str, line: &str) -> bool {
    let opens_lower = line.chars().next().is_some_and(char::is_lowercase);
    // A table's row under another is a row of its own ("eszopiclone | 3 mg | 2 mg |"
    // under the header); a cell wrapped onto its own line is joined by [`rows_joined`].
    let rows = above.contains('|') && line.contains('|');
    opens_lower && !rows && !closes(above) && Marker::of(line) == Marker::None
}

/// Whether a line ends with a mark that closes a sentence, clause or label.
fn closes(line: &str) -> bool {
    line.ends_with(['.', '!', '?', ':', ';'])
}

/// Whether a line ends with a preposition, as a lead-in left open for the lines under
/// it does.
fn ends_with_preposition(line: &str) -> bool {
    line.rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .is_some_and(|w| Class::Preposition.has(&w.to_lowercase()))
}

/// Whether `line` carries on a paragraph wrapped at the page's width rather than
/// listing an item under `above`: `above` ends one sentence and breaks the next off
/// ("… teratogenicity. After the first trimester of"), and `line` runs on past its own
/// end, with a comma or into another sentence ("pregnancy, an azole antifungal,").
fn wrapped(above: &str, line: &str) -> bool {
    split_sentences(above).len() > 1 && (line.ends_with(',') || split_sentences(line).len() > 1)
}

/// Whether a line reads as a heading: short, no closing punctuation, not a table row,
/// and starting with a capital or a section number.
fn is_heading(line: &str) -> bool {
    let line = line.trim();
    let words = line.split_whitespace().count();
    let closed = line.ends_with(['.', '!', '?', ';', ',', ':']);
    // A parenthesis opening the line is a heading's or a cell's wrapped second line
    // ("Lopinavir / ritonavir" / "(Kaletra™)").
    let starts = line
        .trim_start_matches('(')
        .chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
    // A line that opens with a value and gives another is a table's row ("30–50
    // 250–750 Every 12 hrs"), unless the number is its section's, before a capitalised
    // word ("2.4 Patients with Renal Impairment").
    let mut opening = line.split_whitespace();
    let first = opening.next().unwrap_or("");
    let numbered = section_number(first.trim_end_matches(')'))
        && opening
            .next()
            .is_some_and(|w| w.starts_with(|c: char| c.is_uppercase()));
    let values = line
        .split_whitespace()
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    let row = first.starts_with(|c: char| c.is_ascii_digit()) && values >= 2 && !numbered;
    let starts = starts && !row;
    let short = words <= MAX_HEADING_WORDS || (is_caption(line) && words <= MAX_CAPTION_WORDS);
    // "Children 2 to under 6 years of age: 5 mg once daily" sets a value under its
    // label: a statement, where a caption's colon only numbers it.
    let labelled_value = !is_caption(line)
        && line
            .split_once(':')
            .is_some_and(|(_, value)| value.chars().any(char::is_alphanumeric));
    (words > 0 && short && !closed && !line.contains('|') && starts && !labelled_value)
        || is_value_key(line)
}

/// Whether a line is a bare value that keys the lines under it, as a table flattened to
/// one cell a line has its rows' first cells ("40–49" over "3.3 mg zoledronic acid",
/// "> 60" over "4.0 mg").
pub(super) fn is_value_key(line: &str) -> bool {
    let line = line.trim();
    line.chars().any(|c| c.is_ascii_digit())
        && line.chars().all(|c| {
            c.is_ascii_digit()
                || c.is_whitespace()
                || matches!(c, '.' | ',' | '–' | '-' | '—' | '<' | '>' | '≤' | '≥' | '=')
        })
}

/// Longest table or figure caption, in words, read as a heading.
const MAX_CAPTION_WORDS: usize = 30;

/// Whether a line is a table's or figure's caption ("Table 1: Dosage Regimens for
/// Patients with Severe Renal Impairment (creatinine clearance <30 mL/minute)"): it
/// names what the rows under it are for, however long it is.
fn is_caption(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let label = words.next().unwrap_or("");
    let number = words.next().unwrap_or("");
    let numbered = number
        .trim_end_matches([':', '.'])
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit());
    matches!(label, "Table" | "TABLE" | "Figure" | "FIGURE") && numbered
}

/// A heading without its section number ("4.3.1 Children" → "Children").
fn strip_numbering(line: &str) -> &str {
    let trimmed = line.trim();
    match trimmed.split_once(' ') {
        Some((first, rest)) if section_number(first) => rest.trim(),
        _ => trimmed,
    }
}

/// Whether a word is a section's number ("4", "2.4", "3.1.").
fn section_number(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) && word.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// A lead-in's text without its list number and closing colon.
fn lead_text(line: &str) -> String {
    let m = Marker::of(line);
    line[m.width(line)..]
        .trim()
        .trim_end_matches(':')
        .trim()
        .to_string()
}

/// How a line is marked as a list item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    None,
    /// A bullet character.
    Bullet(char),
    /// "3." or "3)".
    Number(u32),
    /// A lead-in whose items are not marked (one per line).
    Any,
    /// A lead-in left open by a preposition ("… is positive for"), whose items are the
    /// unmarked lines under it.
    Open,
}

/// Characters that start a bulleted line.
const BULLETS: &[char] = &['•', '·', '▪', '◦', '●', '○', '-', '*', '–', '—', '‣', '■'];

impl Marker {
    fn of(line: &str) -> Marker {
        let line = line.trim_start();
        let mut chars = line.chars();
        let Some(first) = chars.next() else {
            return Marker::None;
        };
        if BULLETS.contains(&first) && chars.next().is_some_and(char::is_whitespace) {
            return Marker::Bullet(first);
        }
        let digits: String = line.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() && digits.len() <= 2 {
            let rest = &line[digits.len()..];
            let mut rest_chars = rest.chars();
            if matches!(rest_chars.next(), Some('.') | Some(')'))
                && rest_chars.next().is_none_or(char::is_whitespace)
            {
                return digits.parse().map_or(Marker::None, Marker::Number);
            }
        }
        Marker::None
    }

    /// Bytes the marker takes at the start of the line (with the space after it).
    fn width(self, line: &str) -> usize {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let marker = match self {
            Marker::None | Marker::Any | Marker::Open => return 0,
            Marker::Bullet(c) => c.len_utf8(),
            Marker::Number(n) => n.to_string().len() + 1,
        };
        let rest = &trimmed[marker.min(trimmed.len())..];
        indent + marker + (rest.len() - rest.trim_start().len())
    }

    /// Whether a line marked `self` continues a list whose last item was `previous`.
    fn continues(self, previous: &Marker) -> bool {
        match (previous, self) {
            (Marker::Any | Marker::Open, _) => true,
            (Marker::Bullet(a), Marker::Bullet(b)) => *a == b,
            (Marker::Number(a), Marker::Number(b)) => b == a + 1,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Vec<(Kind, String, Vec<String>, Option<String>)> {
        statements(0, text)
            .into_iter()
            .map(|s| (s.kind, s.text, s.headings, s.lead))
            .collect()
    }

    #[test]
    fn a_line_that_opens_with_a_value_is_a_row_unless_it_is_the_value_alone() {
        for (line, heading) in [
            ("2.4 Patients with Renal Impairment", true),
            ("4 Contraindications", true),
            ("Creatinine clearance", true),
            ("30–50 250–750 Every 12 hrs", false),
            ("100 mg daily", true),
            ("40–49", true),
            ("> 60", true),
        ] {
            assert_eq!(is_heading(line), heading, "{line}");
        }
    }

    #[test]
    fn headings_scope_sentences_and_lead_ins_scope_items() {
        let text = "JE vaccines\n\nImojev vaccine\n\nImojev is live. It is given once.\n\n\
                    Imojev is not suitable for:\n\n• pregnant people\n• infants.\n\nA broad use is fine.";
        let s = shape(text);
        let title = vec!["JE vaccines".to_string()];
        let section = vec!["JE vaccines".to_string(), "Imojev vaccine".to_string()];
        assert_eq!(s[0], (Kind::Heading, "JE vaccines".into(), vec![], None));
        assert_eq!(s[1], (Kind::Heading, "Imojev vaccine".into(), title, None));
        assert_eq!(
            s[2],
            (
                Kind::Sentence,
                "Imojev is live.".into(),
                section.clone(),
                None
            )
        );
        assert_eq!(s[3].1, "It is given once.");
        assert_eq!(s[4].0, Kind::Sentence);
        let lead = Some("Imojev is not suitable for".to_string());
        assert_eq!(
            s[5],
            (
                Kind::Item,
                "pregnant people".into(),
                section.clone(),
                lead.clone()
            )
        );
        assert_eq!(s[6], (Kind::Item, "infants.".into(), section.clone(), lead));
        assert_eq!(
            s[7],
            (Kind::Sentence, "A broad use is fine.".into(), section, None)
        );
    }

    #[test]
    fn a_colon_lead_in_takes_the_lines_in_lower_case_below() {
        let text = "Higher dose\nSome women need a higher dose.\nYou may have a higher \
                    chance if:\nyou have diabetes\nyou take anti-epilepsy medicine\nOther \
                    women need the usual dose.\nDose:\nFive milligrams";
        let lead = Some("You may have a higher chance if".to_string());
        let read: Vec<(Kind, String, Option<String>)> =
            shape(text).into_iter().map(|s| (s.0, s.1, s.3)).collect();
        assert_eq!(
            read[2..5],
            [
                (
                    Kind::Sentence,
                    "You may have a higher chance if:".to_string(),
                    None
                ),
                (Kind::Item, "you have diabetes".to_string(), lead.clone()),
                (
                    Kind::Item,
                    "you take anti-epilepsy medicine".to_string(),
                    lead
                ),
            ]
        );
        // A capitalised line under a colon is what it looks like, not an item.
        assert!(read[5..]
            .iter()
            .all(|(kind, _, lead)| *kind != Kind::Item && lead.is_none()));
    }

    #[test]
    fn a_lead_in_left_open_by_a_preposition_takes_the_unmarked_lines_below() {
        let text = "Reading the result\n\nA result of 5 mm or more is positive for\n\
                    People with HIV\nRecent contacts of a person with TB\n\
                    A result of 10 mm or more is positive for\nInjection drug users\n\
                    Other people need no test.\nNot suitable for:\nInfants\nAll others.";
        let s = shape(text);
        let five = Some("A result of 5 mm or more is positive for".to_string());
        let ten = Some("A result of 10 mm or more is positive for".to_string());
        let read: Vec<(Kind, &str, Option<String>)> =
            s.iter().map(|s| (s.0, s.1.as_str(), s.3.clone())).collect();
        assert_eq!(
            read,
            vec![
                (Kind::Heading, "Reading the result", None),
                (
                    Kind::Sentence,
                    "A result of 5 mm or more is positive for",
                    None
                ),
                (Kind::Item, "People with HIV", five.clone()),
                (Kind::Item, "Recent contacts of a person with TB", five),
                (
                    Kind::Sentence,
                    "A result of 10 mm or more is positive for",
                    None
                ),
                (Kind::Item, "Injection drug users", ten),
                (Kind::Sentence, "Other people need no test.", None),
                (Kind::Sentence, "Not suitable for:", None),
                (Kind::Heading, "Infants", None),
                (Kind::Sentence, "All others.", None),
            ]
        );
        assert!(is_lead_in("Imojev is not suitable for:") && is_lead_in("is positive for"));
        // A paragraph wrapped at a preposition after a sentence's end carries on.
        let wrapped = "Options include no therapy (W-L). After the first trimester of\n\
                       pregnancy, an azole, such as fluconazole,\ncan be considered (S-L).";
        let read: Vec<String> = shape(wrapped).into_iter().map(|s| s.1).collect();
        assert_eq!(
            read,
            vec![
                "Options include no therapy (W-L).",
                "After the first trimester of\npregnancy, an azole, such as fluconazole,\n\
                 can be considered (S-L)."
            ]
        );
        assert!(!is_lead_in("Use in Specific Populations") && !is_lead_in("Pregnancy"));
    }

    #[test]
    fn a_question_over_a_list_leads_it() {
        let text = "Who should not get the nasal spray?\n\n• Children younger than 2 years\n\
                    • Pregnant women\n\nWho can get it?\n\nPeople aged 2 through 49 years.";
        let read: Vec<(Kind, String, Option<String>)> =
            shape(text).into_iter().map(|s| (s.0, s.1, s.3)).collect();
        let lead = Some("Who should not get the nasal spray?".to_string());
        assert_eq!(
            read,
            vec![
                (
                    Kind::Sentence,
                    "Who should not get the nasal spray?".into(),
                    None
                ),
                (
                    Kind::Item,
                    "Children younger than 2 years".into(),
                    lead.clone()
                ),
                (Kind::Item, "Pregnant women".into(), lead),
                (Kind::Sentence, "Who can get it?".into(), None),
                (
                    Kind::Sentence,
                    "People aged 2 through 49 years.".into(),
                    None
                ),
            ]
        );
    }

    #[test]
    fn a_line_without_letters_or_digits_only_separates_cells() {
        let text = "Regimen\n|\nDexamethasone\n|\n12 mg orally\n----\nGive it once.";
        let s = shape(text);
        let read: Vec<(&str, Vec<String>)> =
            s.iter().map(|s| (s.1.as_str(), s.2.clone())).collect();
        assert_eq!(
            read[..3],
            [
                ("Regimen", vec![]),
                ("Dexamethasone", vec!["Regimen".to_string()]),
                (
                    "12 mg orally",
                    vec!["Regimen".to_string(), "Dexamethasone".to_string()]
                ),
            ]
        );
        assert_eq!(read[3].0, "Give it once.");
        assert_eq!(read.len(), 4);
    }

    #[test]
    fn each_sentence_of_a_list_item_is_a_statement_under_its_lead_in() {
        let text = "Vaccines\nTwo are licensed:\n- X is licensed for adults. Y is licensed for \
                    people aged 12 years and older.\n- Both are given once.";
        let s = shape(text);
        let lead = Some("Two are licensed".to_string());
        let items: Vec<(&str, Option<String>)> = s
            .iter()
            .filter(|s| s.0 == Kind::Item)
            .map(|s| (s.1.as_str(), s.3.clone()))
            .collect();
        assert_eq!(
            items,
            vec![
                ("X is licensed for adults.", lead.clone()),
                (
                    "Y is licensed for people aged 12 years and older.",
                    lead.clone()
                ),
                ("Both are given once.", lead),
            ]
        );
    }

    #[test]
    fn numbered_items_end_where_the_numbering_breaks() {
        let text = "Recommendations\n2. This applies to the following:\n1. People with TB.\n\
                    2. Adults aged 14 years and older.\n3. All people.\n\
                    3. This does not apply to pregnant women.";
        let s = shape(text);
        let lead = Some("This applies to the following".to_string());
        assert_eq!(s[2].1, "People with TB.");
        assert_eq!(s[2].3, lead);
        assert_eq!(s[3].3, lead);
        assert_eq!(s[4].3, lead);
        assert_eq!(s[5].1, "This does not apply to pregnant women.");
        assert_eq!(s[5].3, None);
    }

    #[test]
    fn a_sentence_broken_across_lines_is_one_statement() {
        let text = "Comment\nTetracyclines are not\nrecommended for children less than 8 years\n\
                    because of tooth discoloration.\nDoxycycline\n300 mg × single\ndose";
        let s = shape(text);
        let read: Vec<&str> = s.iter().map(|s| s.1.as_str()).collect();
        assert_eq!(
            read,
            [
                "Comment",
                "Tetracyclines are not\nrecommended for children less than 8 years\nbecause of \
                 tooth discoloration.",
                "Doxycycline",
                "300 mg × single\ndose",
            ]
        );
        // A line under a preposition that leads a list is an item of it.
        let s = shape("A result of 5 mm is positive for\npeople with HIV\nrecent contacts");
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn a_long_caption_scopes_its_table_and_a_long_line_does_not() {
        let caption = "Table 1: Dosage Regimens for Patients with Severe Renal Impairment \
                       (creatinine clearance <30 mL/minute)";
        let s = shape(&format!(
            "Enoxaparin\n{caption}\nProphylaxis\n30 mg once daily"
        ));
        assert_eq!(s[1].0, Kind::Heading);
        assert!(s[3].2.contains(&caption.to_string()), "{:?}", s[3]);
        let long = "Dosage Regimens for Patients with Severe Renal Impairment and Their \
                    Creatinine Clearance Below Thirty";
        let s = shape(&format!("Enoxaparin\n{long}\n30 mg once daily"));
        assert_eq!(s[1].0, Kind::Sentence);
    }

    #[test]
    fn section_numbers_leave_headings_and_rows_stay_whole() {
        let s = shape("Title\n4.3.1 Children\nA | B | C\nChildren were excluded.");
        assert_eq!(s[2].0, Kind::Row);
        assert_eq!(s[2].2, vec!["Title".to_string(), "Children".to_string()]);
        assert_eq!(s[3].2, vec!["Title".to_string(), "Children".to_string()]);
    }

    #[test]
    fn a_page_flattened_onto_one_line_is_prose_not_a_row() {
        // Its tables' bars stay in running text; a cell of several sentences is prose.
        let line = "## Lithium and NSAIDs **Key point:** NSAIDs raise lithium levels. \
                    They reduce its clearance. Acetaminophen is the preferred analgesic. \
                    | Agent | Safe? | | --- | --- | | Ibuprofen | No |";
        let s = shape(line);
        assert!(s.iter().all(|(kind, ..)| *kind == Kind::Sentence), "{s:?}");
        assert!(s.len() >= 3, "{s:?}");
    }

    #[test]
    fn a_header_over_a_rule_names_the_cells_of_the_rows_under_it() {
        let text = "Doses\n| Drug | Adults | Over 65 years | Note |\n|---|---|---|---|\n| \
                    Exemplazole | 10 mg | 5 mg |\nsee the label |\n| fludrozine | 2 mg | 1 mg | |\n\
                    After the table.";
        let s = statements(0, text);
        let rows: Vec<&Statement> = s.iter().filter(|s| s.kind == Kind::Row).collect();
        // The header, the first row with the cell wrapped onto the next line joined to
        // it, the second row.
        assert_eq!(rows.len(), 3, "{s:#?}");
        assert!(rows[0].columns.is_empty());
        let cells = |row: &Statement| -> Vec<(String, String)> {
            row.columns
                .iter()
                .map(|c| (row.text[c.range.clone()].to_string(), c.name.clone()))
                .collect()
        };
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            cells(rows[1]),
            vec![
                pair("Exemplazole", "Drug"),
                pair("10 mg", "Adults"),
                pair("5 mg", "Over 65 years"),
                pair("see the label", "Note")
            ]
        );
        assert_eq!(
            rows[1]
                .column_at(rows[1].text.find("5 mg").unwrap())
                .unwrap()
                .0,
            2
        );
        assert_eq!(cells(rows[2])[2], pair("1 mg", "Over 65 years"));
        assert_eq!(s.last().unwrap().kind, Kind::Sentence);
        // Rows written without opening bars stand one a line, lower case or not.
        let open = statements(
            0,
            "Drug | Dose\n---|---\nexemplazole | 10 mg\nfludrozine | 2 mg",
        );
        assert_eq!(open.len(), 3, "{open:#?}");
        assert_eq!(open[2].columns[1].name, "Dose");
        // Without a rule under it, no row is a header.
        let plain = statements(0, "Drug | Adults\nExemplazole | 10 mg");
        assert!(plain.iter().all(|s| s.columns.is_empty()), "{plain:#?}");
    }

    #[test]
    fn odd_input_never_panics() {
        for text in [
            "",
            "\n\n",
            "•",
            "1.",
            "•\n• \n1)",
            "a:\n\u{2022}x",
            "ü:\n99. é",
            "|\n|---|\n|",
            "a | b\n---|---\n|\n| é |",
        ] {
            let _ = statements(0, text);
        }
    }
}
