//! Re-gating a question under a condition table the user edits (the gated-path view's
//! chips): the graph is immutable and gating is a predicate over it, so flipping a
//! condition re-runs gate → walk → rank → answer with the parsed question and the
//! other values kept, and no model runs — every text the new walk can rank was
//! embedded when the question was first answered (the ungated walk is a superset of
//! every gated one, and the sentences the reader may fall back to are embedded too).

use super::{answer_with, reader, Answer, AnswerError, PipelineConfig, Prepared, QuestionSteps};
use crate::embed::{Embedder, Memo};
use crate::gate::{ConditionTable, Truth};
use crate::patient::Patient;
use crate::query::ParsedQuery;
use crate::regram::Triple;

/// A question answered once, kept so it can be re-gated.
#[derive(Debug, Clone)]
pub struct Exploration {
    question: String,
    config: PipelineConfig,
    query: ParsedQuery,
    /// The table L as the question-side steps evaluated it.
    evaluated: ConditionTable,
}

/// An answer under an edited table, with the model work it took.
#[derive(Debug, Clone)]
pub struct Regated {
    pub answer: Answer,
    /// Texts the embedder had to embed for it (0 when everything was prepared).
    pub embedded: usize,
}

/// Answers `question` as [`answer_with`] does and prepares re-gating it: the texts of
/// the ungated walk and the documents' sentences go through `embedder` now, so that
/// [`Exploration::regate`] finds them remembered.
pub async fn explore<E: Embedder>(
    prepared: &Prepared,
    question: &str,
    config: &PipelineConfig,
    embedder: &mut Memo<E>,
    steps: &mut impl QuestionSteps,
) -> Result<(Answer, Exploration), AnswerError> {
    let mut recording = Recording {
        inner: steps,
        table: ConditionTable::new(),
    };
    let answer = answer_with(prepared, question, config, embedder, &mut recording).await?;
    let exploration = Exploration {
        question: question.to_string(),
        config: *config,
        query: answer.query.clone(),
        evaluated: recording.table,
    };
    if config.gating {
        let ungated = PipelineConfig {
            gating: false,
            ..*config
        };
        answer_with(
            prepared,
            question,
            &ungated,
            embedder,
            &mut exploration.fixed(&[]),
        )
        .await?;
        let mut texts = reader::sentence_texts(prepared);
        texts.extend(exploration.query.keywords.iter().cloned());
        embedder.embed(&texts).await?;
    }
    Ok((answer, exploration))
}

/// The values a description of the patient given apart from the question ("34 weeks
/// pregnant, penicillin allergy") gives the condition phrases of `answer`'s table,
/// for re-gating with them: only the phrases it speaks to (true or false).
pub fn described(answer: &Answer, description: &str) -> Vec<(String, Truth)> {
    let patient = Patient::read(description);
    answer
        .conditions
        .iter()
        .filter_map(|(phrase, _)| match patient.evaluate(phrase) {
            Truth::Unknown => None,
            truth => Some((phrase.clone(), truth)),
        })
        .collect()
}

impl Exploration {
    /// The strategy's knobs the question was asked with.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    pub fn question(&self) -> &str {
        &self.question
    }

    /// The value the question-side steps gave `phrase` (unknown when they gave none).
    pub fn evaluated(&self, phrase: &str) -> Truth {
        self.evaluated.phrase(phrase)
    }

    /// The question answered again with `overrides` (phrase → truth) replacing the
    /// evaluated values; phrases not overridden keep theirs.
    pub async fn regate<E: Embedder>(
        &self,
        prepared: &Prepared,
        overrides: &[(String, Truth)],
        embedder: &mut Memo<E>,
    ) -> Result<Regated, AnswerError> {
        let before = embedder.computed();
        let answer = answer_with(
            prepared,
            &self.question,
            &self.config,
            embedder,
            &mut self.fixed(overrides),
        )
        .await?;
        Ok(Regated {
            answer,
            embedded: embedder.computed() - before,
        })
    }

    fn fixed(&self, overrides: &[(String, Truth)]) -> Fixed {
        let mut table = self.evaluated.clone();
        for (phrase, truth) in overrides {
            table.set(phrase, *truth);
        }
        Fixed {
            query: self.query.clone(),
            table,
        }
    }
}

/// Question-side steps that only replay: the parsed question and a given table.
struct Fixed {
    query: ParsedQuery,
    table: ConditionTable,
}

impl QuestionSteps for Fixed {
    async fn parse(&mut self, _: &str) -> Result<ParsedQuery, AnswerError> {
        Ok(self.query.clone())
    }

    async fn evaluate(
        &mut self,
        _: &ParsedQuery,
        _: &[String],
    ) -> Result<ConditionTable, AnswerError> {
        Ok(self.table.clone())
    }
}

/// Passes through to `inner` and keeps the table it evaluated.
struct Recording<'a, S> {
    inner: &'a mut S,
    table: ConditionTable,
}

impl<S: QuestionSteps> QuestionSteps for Recording<'_, S> {
    async fn parse(&mut self, question: &str) -> Result<ParsedQuery, AnswerError> {
        self.inner.parse(question).await
    }

    async fn evaluate(
        &mut self,
        query: &ParsedQuery,
        phrases: &[String],
    ) -> Result<ConditionTable, AnswerError> {
        let table = self.inner.evaluate(query, phrases).await?;
        self.table = table.clone();
        Ok(table)
    }

    async fn hypothesize(
        &mut self,
        hop: &str,
        facts: &[String],
        entities: &[String],
        relations: &[String],
    ) -> Result<Vec<Triple>, AnswerError> {
        self.inner
            .hypothesize(hop, facts, entities, relations)
            .await
    }

    async fn revise(
        &mut self,
        triple: &Triple,
        question: &str,
        relations: &[String],
    ) -> Result<Option<Triple>, AnswerError> {
        self.inner.revise(triple, question, relations).await
    }

    async fn guess(&mut self, hop: &str) -> Result<Option<String>, AnswerError> {
        self.inner.guess(hop).await
    }
}
