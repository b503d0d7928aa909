//! Part-of-speech tags (Penn Treebank) by Brill's transformation-based tagger: a word
//! lexicon gives each known word its most frequent tag, lexical rules guess unknown
//! words from their shape, and contextual rules correct tags from their neighbours.
//! The data (lexicon and both rule lists) is loaded from bytes, as
//! `scripts/build_lexicons.py` writes it; the algorithm is Brill (1992) as TextBlob and
//! Pattern apply it, so a word is tagged the same way natively and in the browser.

use std::collections::HashMap;

use super::{data_lines, LanguageError};

/// A Penn Treebank part-of-speech tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    Cc,
    Cd,
    Dt,
    Ex,
    Fw,
    In,
    Jj,
    Jjr,
    Jjs,
    Ls,
    Md,
    Nn,
    Nns,
    Nnp,
    Nnps,
    Pdt,
    Pos,
    Prp,
    PrpS,
    Rb,
    Rbr,
    Rbs,
    Rp,
    Sym,
    To,
    Uh,
    Vb,
    Vbd,
    Vbg,
    Vbn,
    Vbp,
    Vbz,
    Wdt,
    Wp,
    WpS,
    Wrb,
    /// `,`
    Comma,
    /// `.`, `!`, `?`: the end of a sentence.
    Period,
    /// `:`, `;`, dashes.
    Colon,
    /// `(`, `[`, `{`
    OpenBracket,
    /// `)`, `]`, `}`
    CloseBracket,
    /// An opening quote (Penn's two backquotes).
    OpenQuote,
    /// A closing quote (Penn's two single quotes).
    CloseQuote,
    /// `$` and other currency signs.
    Dollar,
    /// `#`
    Hash,
    /// Any other tag.
    Other,
}

const NAMES: &[(&str, Tag)] = &[
    ("CC", Tag::Cc),
    ("CD", Tag::Cd),
    ("DT", Tag::Dt),
    ("EX", Tag::Ex),
    ("FW", Tag::Fw),
    ("IN", Tag::In),
    ("JJ", Tag::Jj),
    ("JJR", Tag::Jjr),
    ("JJS", Tag::Jjs),
    ("LS", Tag::Ls),
    ("MD", Tag::Md),
    ("NN", Tag::Nn),
    ("NNS", Tag::Nns),
    ("NNP", Tag::Nnp),
    ("NNPS", Tag::Nnps),
    ("PDT", Tag::Pdt),
    ("POS", Tag::Pos),
    ("PRP", Tag::Prp),
    ("PRP$", Tag::PrpS),
    ("RB", Tag::Rb),
    ("RBR", Tag::Rbr),
    ("RBS", Tag::Rbs),
    ("RP", Tag::Rp),
    ("SYM", Tag::Sym),
    ("TO", Tag::To),
    ("UH", Tag::Uh),
    ("VB", Tag::Vb),
    ("VBD", Tag::Vbd),
    ("VBG", Tag::Vbg),
    ("VBN", Tag::Vbn),
    ("VBP", Tag::Vbp),
    ("VBZ", Tag::Vbz),
    ("WDT", Tag::Wdt),
    ("WP", Tag::Wp),
    ("WP$", Tag::WpS),
    ("WRB", Tag::Wrb),
    (",", Tag::Comma),
    (".", Tag::Period),
    (":", Tag::Colon),
    ("(", Tag::OpenBracket),
    (")", Tag::CloseBracket),
    ("``", Tag::OpenQuote),
    ("''", Tag::CloseQuote),
    ("$", Tag::Dollar),
    ("#", Tag::Hash),
];

impl Tag {
    /// The tag named `name` in Penn's notation; an ambiguous entry (`NN|SYM`) is its
    /// first tag; anything unknown is [`Tag::Other`].
    pub fn from_penn(name: &str) -> Tag {
        let first = name.split('|').next().unwrap_or(name);
        NAMES
            .iter()
            .find(|(n, _)| *n == first)
            .map_or(Tag::Other, |&(_, t)| t)
    }

    /// The tag's name in Penn's notation (`Other` reads "?").
    pub fn penn(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("?", |&(n, _)| n)
    }

    /// A common or proper noun, singular or plural.
    pub fn is_noun(self) -> bool {
        matches!(self, Tag::Nn | Tag::Nns | Tag::Nnp | Tag::Nnps)
    }

    /// An adjective, comparative or superlative included.
    pub fn is_adjective(self) -> bool {
        matches!(self, Tag::Jj | Tag::Jjr | Tag::Jjs)
    }

    /// An adverb, comparative or superlative included.
    pub fn is_adverb(self) -> bool {
        matches!(self, Tag::Rb | Tag::Rbr | Tag::Rbs)
    }

    /// Any verb form, modals excluded.
    pub fn is_verb(self) -> bool {
        matches!(
            self,
            Tag::Vb | Tag::Vbd | Tag::Vbg | Tag::Vbn | Tag::Vbp | Tag::Vbz
        )
    }

    /// A finite verb: the verb that makes a clause (past, present, or a modal).
    pub fn is_finite_verb(self) -> bool {
        matches!(self, Tag::Vbd | Tag::Vbp | Tag::Vbz | Tag::Md)
    }

    /// A determiner-like word that opens a noun phrase ("the", "all", "which", "his").
    pub fn is_determiner(self) -> bool {
        matches!(self, Tag::Dt | Tag::Pdt | Tag::Wdt | Tag::PrpS | Tag::WpS)
    }
}

/// The most words that may modify a noun between a number and the noun it counts.
const MODIFIERS_BEFORE_COUNTED: usize = 3;

/// Brill's tagger: lexicon, lexical rules for unknown words, contextual rules.
#[derive(Debug, Clone)]
pub struct Tagger {
    lexicon: HashMap<String, Tag>,
    lexical: Vec<LexicalRule>,
    contextual: Vec<ContextRule>,
}

impl Tagger {
    /// Reads the tagger's data: a `[lexicon]` section of `word TAG` lines, a
    /// `[morphology]` section of Brill's lexical rules and a `[context]` section of his
    /// contextual rules; `#` lines are comments. A line that is not a rule is an error
    /// naming the line.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tagger, LanguageError> {
        const WHAT: &str = "tagger data";
        let mut tagger = Tagger {
            lexicon: HashMap::new(),
            lexical: Vec::new(),
            contextual: Vec::new(),
        };
        for line in data_lines(bytes, WHAT, &["[lexicon]", "[morphology]", "[context]"])? {
            let bad = |why: &str| LanguageError::new(WHAT, line.number, why.to_string());
            let fields: Vec<&str> = line.text.split(' ').collect();
            match line.section {
                "[lexicon]" => match fields.as_slice() {
                    [word, tag] => {
                        tagger
                            .lexicon
                            .insert((*word).to_string(), Tag::from_penn(tag));
                    }
                    _ => return Err(bad("a lexicon line is `word TAG`")),
                },
                "[morphology]" => tagger
                    .lexical
                    .push(LexicalRule::parse(&fields).ok_or_else(|| bad("not a lexical rule"))?),
                _ => tagger
                    .contextual
                    .push(ContextRule::parse(&fields).ok_or_else(|| bad("not a contextual rule"))?),
            }
        }
        if tagger.lexicon.is_empty() {
            return Err(LanguageError::new(WHAT, 0, "no [lexicon] entries".into()));
        }
        Ok(tagger)
    }

    /// How many words the lexicon knows.
    pub fn known_words(&self) -> usize {
        self.lexicon.len()
    }

    /// The tags of one sentence's tokens (words and punctuation, in order): Brill's
    /// algorithm, then a word opening a table's cell or a bullet read as a sentence's
    /// first word, and rules of English Brill's algorithm misses, the first two about
    /// participles before a noun ("should receive inactivated influenza vaccine"):
    /// - an "-ed" word that the lexicon does not know, or knows only as a past form, is
    ///   never a base or present form, so where the contextual rules made it one (after a
    ///   modal) it is a participle;
    /// - a past tense needs a subject, so right after a verb, modal, determiner,
    ///   preposition or adjective and right before a noun or adjective it modifies, it
    ///   is a participle;
    /// - a symbol that opens with a letter and has digits in it ("T4", "HbA1c", "CD4")
    ///   names a thing: a noun, never a cardinal;
    /// - "do", "does" and "did" are the verb (mostly the auxiliary: "How long do rapid
    ///   tests remain positive?") unless a determiner or possessive makes them a noun;
    ///   Brill's contextual rules make "do" a noun after any adjective;
    /// - a present "-s" form needs a singular subject: after a number above one and
    ///   the words that modify what it counts, it is the plural noun they modify
    ///   ("three early-morning gastric aspirates, obtained by …"; Brill's contextual
    ///   rules make "gastric" a noun before the verb), and right after a determiner
    ///   that cannot be its subject it is a noun ("For these patients a less stringent
    ///   goal …").
    pub fn tag(&self, tokens: &[&str]) -> Vec<Tag> {
        // A table's cell or a bullet starts as a sentence does, with a capital that
        // says nothing of a name ("| Trigger agents |").
        let mut tags = self.brill(tokens, |i| {
            i == 0 || matches!(tokens[i - 1], "|" | "•" | "*")
        });
        for (tag, token) in tags.iter_mut().zip(tokens) {
            let past_form = matches!(self.lookup(token, false), None | Some(Tag::Vbd | Tag::Vbn));
            if matches!(tag, Tag::Vb | Tag::Vbp) && token.ends_with("ed") && past_form {
                *tag = Tag::Vbn;
            }
        }
        for (tag, token) in tags.iter_mut().zip(tokens) {
            let symbol = token.chars().next().is_some_and(char::is_alphabetic)
                && token.chars().any(|c| c.is_ascii_digit());
            if *tag == Tag::Cd && symbol {
                *tag = Tag::Nn;
            }
        }
        // "steroid-sparing", "linezolid-containing": a hyphened compound ending in an
        // -ing form modifies a noun as an adjective does (the Penn treebank's JJ).
        for (tag, token) in tags.iter_mut().zip(tokens) {
            let compound = token
                .rsplit_once('-')
                .is_some_and(|(first, last)| !first.is_empty() && last.ends_with("ing"));
            if *tag == Tag::Vbg && compound {
                *tag = Tag::Jj;
            }
        }
        for j in 0..tags.len() {
            let Some(&(_, verb)) = [("do", Tag::Vbp), ("does", Tag::Vbz), ("did", Tag::Vbd)]
                .iter()
                .find(|(form, _)| tokens[j].eq_ignore_ascii_case(form))
            else {
                continue;
            };
            let named = j > 0 && (tags[j - 1].is_determiner() || tags[j - 1] == Tag::PrpS);
            if tags[j].is_noun() && !named {
                tags[j] = verb;
            }
        }
        for j in 1..tags.len().saturating_sub(1) {
            let (before, after) = (tags[j - 1], tags[j + 1]);
            let no_subject = before.is_verb()
                || before.is_determiner()
                || before.is_adjective()
                || matches!(before, Tag::Md | Tag::In | Tag::To);
            if tags[j] == Tag::Vbd && no_subject && (after.is_noun() || after.is_adjective()) {
                tags[j] = Tag::Vbn;
            }
        }
        for j in 1..tags.len() {
            let plural_form = tags[j] == Tag::Vbz
                && tokens[j].ends_with('s')
                && !matches!(
                    tokens[j].to_lowercase().as_str(),
                    "is" | "has" | "does" | "was"
                );
            if !plural_form {
                continue;
            }
            // The words before it that can modify a noun, back to what opens the phrase.
            let opener = (0..j)
                .rev()
                .take(MODIFIERS_BEFORE_COUNTED + 1)
                .find(|&k| !(tags[k].is_adjective() || tags[k].is_noun()));
            let counted = opener.is_some_and(|k| {
                tags[k] == Tag::Cd && !matches!(tokens[k].to_lowercase().as_str(), "one" | "1")
            });
            // … and so after a determiner that never stands for a singular subject
            // ("For these patients …").
            let determined = matches!(
                tokens[j - 1].to_lowercase().as_str(),
                "the" | "a" | "an" | "these" | "those" | "every" | "each" | "no"
            );
            if counted || determined {
                tags[j] = Tag::Nns;
            }
        }
        // An instruction opens with its verb: "Pregnant women: offer renal ultrasound",
        // "Test the urine", "…, so measure TSH receptor antibodies". A word that opens a
        // clause, is tagged a noun and has a past form in the lexicon is the verb when a
        // determiner, an adjective or a noun follows it after a conjunction, which a
        // noun there never has before its own noun.
        for j in 0..tags.len().saturating_sub(1) {
            let conjoined = j >= 2
                && tokens[j - 2] == ","
                && matches!(
                    tokens[j - 1].to_lowercase().as_str(),
                    "so" | "then" | "and" | "or"
                );
            let opens = j == 0
                || conjoined
                || matches!(tokens[j - 1], ":" | ";" | "|" | "•" | "*" | "." | "?" | "!");
            let lower = tokens[j].to_lowercase();
            // A capital that opens a sentence names nothing.
            let noun = tags[j] == Tag::Nn
                || (tags[j] == Tag::Nnp && self.lexicon.get(lower.as_str()) == Some(&Tag::Nn));
            let next = tags[j + 1];
            if opens
                && noun
                && (next.is_determiner() || next == Tag::Jj || (conjoined && next.is_noun()))
                && self.has_past_form(&lower)
            {
                tags[j] = Tag::Vb;
            }
        }
        tags
    }

    /// Whether the lexicon knows a regular past form of a word ("offer" → "offered",
    /// "use" → "used", "stop" → "stopped", "classify" → "classified"): then the word
    /// can be a verb's base form.
    fn has_past_form(&self, word: &str) -> bool {
        let mut forms = vec![format!("{word}ed")];
        if word.ends_with('e') {
            forms.push(format!("{word}d"));
        }
        if let Some(last) = word.chars().last() {
            forms.push(format!("{word}{last}ed"));
        }
        if let Some(base) = word.strip_suffix('y') {
            forms.push(format!("{base}ied"));
        }
        forms
            .iter()
            .any(|f| matches!(self.lexicon.get(f.as_str()), Some(Tag::Vbd | Tag::Vbn)))
    }

    /// Brill's algorithm alone, as Pattern implements it (the parity test's reference).
    #[cfg(test)]
    pub(crate) fn tag_brill(&self, tokens: &[&str]) -> Vec<Tag> {
        self.brill(tokens, |i| i == 0)
    }

    /// Brill's algorithm, with the tokens that open a sentence (looked up in lower
    /// case too) as `opens` says.
    fn brill(&self, tokens: &[&str], opens: impl Fn(usize) -> bool) -> Vec<Tag> {
        let known: Vec<Option<Tag>> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| self.lookup(t, opens(i)))
            .collect();
        let mut tags: Vec<Tag> = known.iter().map(|t| t.unwrap_or(Tag::Nn)).collect();
        for i in 0..tokens.len() {
            if known[i].is_some() {
                continue;
            }
            let word = tokens[i];
            tags[i] = if is_title(word) {
                Tag::Nnp
            } else if is_number(word) {
                Tag::Cd
            } else {
                let previous = i.checked_sub(1).map(|p| tokens[p]);
                let next = tokens.get(i + 1).copied();
                // A word in capitals (a heading) has the shape of its lower case.
                let lower = in_capitals(word).then(|| word.to_lowercase());
                let shape = lower.as_deref().unwrap_or(word);
                self.lexical.iter().fold(Tag::Nn, |tag, rule| {
                    rule.apply(self, shape, tag, previous, next)
                })
            };
        }
        self.apply_context(tokens, &mut tags);
        tags
    }

    /// A word's lexicon tag: as written; at a sentence's start or in capitals (headings)
    /// also in lower case; a possessive ("Crohn's") as its stem.
    fn lookup(&self, token: &str, first: bool) -> Option<Tag> {
        if let Some(&tag) = self.lexicon.get(token) {
            return Some(tag);
        }
        if first || in_capitals(token) {
            if let Some(&tag) = self.lexicon.get(&token.to_lowercase()) {
                return Some(tag);
            }
        }
        for suffix in ["'s", "’s"] {
            if let Some(stem) = token.strip_suffix(suffix).filter(|s| !s.is_empty()) {
                return self.lookup(stem, first);
            }
        }
        if token.chars().all(|c| !c.is_alphanumeric()) {
            return Some(Tag::Other);
        }
        None
    }

    fn knows(&self, word: &str) -> bool {
        self.lexicon.contains_key(word)
    }

    fn apply_context(&self, tokens: &[&str], tags: &mut [Tag]) {
        // Three empty places either side, as Brill's tagger pads a sentence.
        const PAD: usize = 3;
        let n = tokens.len();
        // Outside the sentence Brill's data writes the word and tag STAART.
        let word = |i: isize| -> &str {
            usize::try_from(i - PAD as isize)
                .ok()
                .and_then(|j| tokens.get(j).copied())
                .unwrap_or(BOUNDARY)
        };
        let mut padded: Vec<Option<Tag>> = vec![None; n + 2 * PAD];
        for (i, t) in tags.iter().enumerate() {
            padded[i + PAD] = Some(*t);
        }
        for i in PAD..PAD + n {
            // Every rule is matched against the tag the word had when its turn came (the
            // last rule that applies wins); its neighbours' changes are seen.
            let Some(current) = padded[i] else { continue };
            for rule in &self.contextual {
                if rule.from.is_some_and(|f| f != current) {
                    continue;
                }
                let ii = i as isize;
                let tag_at = |d: isize| padded[(ii + d) as usize];
                if rule.condition.holds(&tag_at, &|d| word(ii + d)) {
                    padded[i] = Some(rule.to);
                }
            }
        }
        for (i, t) in tags.iter_mut().enumerate() {
            *t = padded[i + PAD].unwrap_or(*t);
        }
    }
}

/// A word written in capitals, longer than an acronym usually is ("CONTRAINDICATIONS",
/// not "HIV").
fn in_capitals(token: &str) -> bool {
    token.chars().any(char::is_alphabetic)
        && !token.chars().any(char::is_lowercase)
        && token.chars().count() > 3
}

/// Python's `str.istitle`, which Brill's tagger as TextBlob runs it uses: upper-case
/// letters only after uncased characters, lower-case ones only after cased ones, and at
/// least one cased letter ("Warfarin" and "Non-Hodgkin" are, "HIV" and "Crohn's" not).
fn is_title(word: &str) -> bool {
    let (mut after_cased, mut any) = (false, false);
    for c in word.chars() {
        if c.is_uppercase() {
            if after_cased {
                return false;
            }
            (after_cased, any) = (true, true);
        } else if c.is_lowercase() {
            if !after_cased {
                return false;
            }
            (after_cased, any) = (true, true);
        } else {
            after_cased = false;
        }
    }
    any
}

/// Digits and number punctuation only ("12", "1.73", "3/4", "25%", "$5").
fn is_number(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | ',' | '.' | ':' | '/' | '%' | '$'))
}

/// One of Brill's lexical rules: "if the word has suffix x, tag it T" and its kin, some
/// only for words currently tagged F (the `f…` commands).
#[derive(Debug, Clone)]
struct LexicalRule {
    only_from: Option<Tag>,
    command: LexicalCommand,
    x: String,
    to: Tag,
}

#[derive(Debug, Clone, Copy)]
enum LexicalCommand {
    Char,
    HasPrefix,
    HasSuffix,
    AddPrefix,
    AddSuffix,
    DeletePrefix,
    DeleteSuffix,
    GoodLeft,
    GoodRight,
}

impl LexicalCommand {
    fn parse(name: &str) -> Option<LexicalCommand> {
        Some(match name {
            "char" => LexicalCommand::Char,
            "haspref" => LexicalCommand::HasPrefix,
            "hassuf" => LexicalCommand::HasSuffix,
            "addpref" => LexicalCommand::AddPrefix,
            "addsuf" => LexicalCommand::AddSuffix,
            "deletepref" => LexicalCommand::DeletePrefix,
            "deletesuf" => LexicalCommand::DeleteSuffix,
            "goodleft" => LexicalCommand::GoodLeft,
            "goodright" => LexicalCommand::GoodRight,
            _ => return None,
        })
    }
}

impl LexicalRule {
    /// `x cmd [n] TAG x` or, for words tagged F only, `F x fcmd [n] TAG x`.
    fn parse(fields: &[&str]) -> Option<LexicalRule> {
        if fields.len() < 4 {
            return None;
        }
        let to = Tag::from_penn(fields[fields.len() - 2]);
        if let Some(command) = LexicalCommand::parse(&fields[1].to_lowercase()) {
            return Some(LexicalRule {
                only_from: None,
                command,
                x: fields[0].to_string(),
                to,
            });
        }
        let name = fields[2].to_lowercase();
        let command = LexicalCommand::parse(name.strip_prefix('f')?)?;
        Some(LexicalRule {
            only_from: Some(Tag::from_penn(fields[0])),
            command,
            x: fields[1].to_string(),
            to,
        })
    }

    fn apply(
        &self,
        tagger: &Tagger,
        word: &str,
        tag: Tag,
        previous: Option<&str>,
        next: Option<&str>,
    ) -> Tag {
        if self.only_from.is_some_and(|f| f != tag) {
            return tag;
        }
        let x = self.x.as_str();
        let holds = match self.command {
            LexicalCommand::Char => word.contains(x),
            LexicalCommand::HasPrefix => word.starts_with(x),
            LexicalCommand::HasSuffix => word.ends_with(x),
            LexicalCommand::AddPrefix => tagger.knows(&format!("{x}{word}")),
            LexicalCommand::AddSuffix => tagger.knows(&format!("{word}{x}")),
            LexicalCommand::DeletePrefix => {
                word.strip_prefix(x).is_some_and(|rest| tagger.knows(rest))
            }
            LexicalCommand::DeleteSuffix => {
                word.strip_suffix(x).is_some_and(|rest| tagger.knows(rest))
            }
            // The word stands well to the left of x: x follows it.
            LexicalCommand::GoodLeft => next == Some(x),
            LexicalCommand::GoodRight => previous == Some(x),
        };
        if holds {
            self.to
        } else {
            tag
        }
    }
}

/// One of Brill's contextual rules: change tag F (or any, `*`) to T when a condition on
/// the neighbouring tags or words holds.
#[derive(Debug, Clone)]
struct ContextRule {
    from: Option<Tag>,
    to: Tag,
    condition: ContextCondition,
}

/// The word and tag Brill's data gives the places outside a sentence.
const BOUNDARY: &str = "STAART";

/// A tag in a contextual rule: `None` is the place outside the sentence (`STAART`).
type Place = Option<Tag>;

fn place(name: &str) -> Place {
    (name != BOUNDARY).then(|| Tag::from_penn(name))
}

#[derive(Debug, Clone)]
enum ContextCondition {
    /// The tag at each offset is the one given.
    Tags(Vec<(isize, Place)>),
    /// Some tag at one of the offsets is the one given.
    AnyTag(Vec<isize>, Place),
    /// The word at each offset is the one given.
    Words(Vec<(isize, String)>),
    /// Some word at one of the offsets is the one given.
    AnyWord(Vec<isize>, String),
    /// A word at one offset and a tag at another.
    WordAndTag((isize, String), (isize, Place)),
}

impl ContextCondition {
    fn holds<'w>(
        &self,
        tag_at: &dyn Fn(isize) -> Place,
        word_at: &dyn Fn(isize) -> &'w str,
    ) -> bool {
        match self {
            ContextCondition::Tags(all) => all.iter().all(|(d, t)| tag_at(*d) == *t),
            ContextCondition::AnyTag(offsets, t) => offsets.iter().any(|d| tag_at(*d) == *t),
            ContextCondition::Words(all) => all.iter().all(|(d, w)| word_at(*d) == w),
            ContextCondition::AnyWord(offsets, w) => offsets.iter().any(|d| word_at(*d) == w),
            ContextCondition::WordAndTag((dw, w), (dt, t)) => {
                word_at(*dw) == w && tag_at(*dt) == *t
            }
        }
    }
}

impl ContextRule {
    /// `F T COMMAND x [y]`.
    fn parse(fields: &[&str]) -> Option<ContextRule> {
        use ContextCondition as C;
        let (from, to, command) = (fields.first()?, fields.get(1)?, fields.get(2)?);
        let x = fields.get(3).copied().unwrap_or("");
        let y = fields.get(4).copied().unwrap_or("");
        let t = place;
        let w = |s: &str| s.to_string();
        let condition = match command.to_lowercase().as_str() {
            "prevtag" => C::Tags(vec![(-1, t(x))]),
            "nexttag" => C::Tags(vec![(1, t(x))]),
            "prev2tag" => C::Tags(vec![(-2, t(x))]),
            "next2tag" => C::Tags(vec![(2, t(x))]),
            "prev1or2tag" => C::AnyTag(vec![-1, -2], t(x)),
            "next1or2tag" => C::AnyTag(vec![1, 2], t(x)),
            "prev1or2or3tag" => C::AnyTag(vec![-1, -2, -3], t(x)),
            "next1or2or3tag" => C::AnyTag(vec![1, 2, 3], t(x)),
            "surroundtag" => C::Tags(vec![(-1, t(x)), (1, t(y))]),
            "prevbigram" => C::Tags(vec![(-2, t(x)), (-1, t(y))]),
            "nextbigram" => C::Tags(vec![(1, t(x)), (2, t(y))]),
            "curwd" => C::Words(vec![(0, w(x))]),
            "prevwd" => C::Words(vec![(-1, w(x))]),
            "nextwd" => C::Words(vec![(1, w(x))]),
            "prev2wd" => C::Words(vec![(-2, w(x))]),
            "next2wd" => C::Words(vec![(2, w(x))]),
            "prev1or2wd" => C::AnyWord(vec![-1, -2], w(x)),
            "next1or2wd" => C::AnyWord(vec![1, 2], w(x)),
            "prev1or2or3wd" => C::AnyWord(vec![-1, -2, -3], w(x)),
            "next1or2or3wd" => C::AnyWord(vec![1, 2, 3], w(x)),
            "lbigram" => C::Words(vec![(-1, w(x)), (0, w(y))]),
            "rbigram" => C::Words(vec![(0, w(x)), (1, w(y))]),
            "wdand2aft" => C::Words(vec![(0, w(x)), (2, w(y))]),
            "wdand2bfr" => C::Words(vec![(-2, w(x)), (0, w(y))]),
            "wdprevtag" => C::WordAndTag((0, w(y)), (-1, t(x))),
            "wdnexttag" => C::WordAndTag((0, w(x)), (1, t(y))),
            "wdand2tagbfr" => C::WordAndTag((0, w(y)), (-2, t(x))),
            "wdand2tagaft" => C::WordAndTag((0, w(x)), (2, t(y))),
            _ => return None,
        };
        let from = match *from {
            "*" => None,
            f => Some(Tag::from_penn(f)),
        };
        Some(ContextRule {
            from,
            to: Tag::from_penn(to),
            condition,
        })
    }
}
