//! The question-side steps with a language model beside the rules.
//!
//! Query parsing stays with the rules: on the CGR prompt of Appendix G.1 a ~135M model
//! invents entities and conditions the question never names. Condition evaluation
//! (Appendix G.3) is where the rules run out — the lexicon knows "pregnant woman ⇒
//! during pregnancy" but not every implication a question can carry — so each condition
//! the lexicon leaves unknown is put to the model with the paper's prompt, its reply
//! held to the JSON shape: after `{"<condition>": ` the model's likelihood of `true`,
//! `false` and `null` is read.
//!
//! Read plainly, SmolLM2-135M answers `true` to nearly everything (on condqa dev its
//! shaped replies lower EM from 97.5 to 82.5). So a verdict counts only when it is
//! *calibrated*: the same three likelihoods are read for a content-free query ("Calibrate
//! before use", Zhao et al. 2021), and `true`/`false` is accepted only when it is the
//! likeliest value, clears [`MIN_PROBABILITY`], and the question raises its
//! log-probability by at least [`MIN_LIFT`] over the content-free one — the question,
//! not the model's prior, must be what says it. The model only fills in unknowns; it
//! never overrides the lexicon.

use std::collections::HashMap;

use std::ops::ControlFlow;

use super::{regram_prompts, AnswerError, QuestionSteps};
use crate::gate::{ConditionTable, Truth};
use crate::llm::{Generate, LanguageModel, Message, Shape};
use crate::query::{parse, ParsedQuery};
use crate::regram::Triple;

/// At most this many unknown conditions are put to the model per question.
pub const MAX_ASKED: usize = 24;

/// A verdict must have at least this probability (among true / false / null).
pub const MIN_PROBABILITY: f64 = 0.75;

/// ... and the question must raise its log-probability by this much (nats, a factor of
/// 7.4) over a content-free query. At 1.0 SmolLM2-135M let one wrong verdict through in
/// 66 on condqa dev and the held-out set ("smokers" true for a Graves orbitopathy
/// question: the topics co-occur in its training text); at 2.0 it decides none, and a
/// larger model with sharper likelihoods can still pass.
pub const MIN_LIFT: f64 = 2.0;

/// Condition phrases longer than this are not asked about (a run-on extraction, not a
/// condition).
const MAX_PHRASE_BYTES: usize = 120;

/// The content-free query the likelihoods are calibrated against.
const CONTENT_FREE: &str = "N/A";

/// The values a condition can take, as the JSON shape writes them.
const VALUES: [&str; 3] = ["true", "false", "null"];

/// What the model said about one condition.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub phrase: String,
    /// The likeliest value for this question.
    pub proposed: Truth,
    /// Its probability among the three values.
    pub probability: f64,
    /// Its log-probability minus that for the content-free query.
    pub lift: f64,
    /// Whether it was put into the table.
    pub accepted: bool,
}

/// [`QuestionSteps`] that ask `model` about the conditions the rules leave unknown.
pub struct LlmSteps<'m, M: LanguageModel> {
    model: &'m M,
    question: String,
    /// Content-free log-probabilities per phrase (the same for every question).
    prior: HashMap<String, [f64; 3]>,
    /// What the model was asked and said for the last question (for `--explain` and the
    /// app's "why" view).
    pub last: Vec<Verdict>,
}

impl<'m, M: LanguageModel> LlmSteps<'m, M> {
    pub fn new(model: &'m M) -> Self {
        LlmSteps {
            model,
            question: String::new(),
            prior: HashMap::new(),
            last: Vec::new(),
        }
    }

    /// The triples under `key` of the model's reply to `messages`, held to `shape`
    /// (ReGraM's Prompts 3 and 4).
    async fn shaped_triples(
        &self,
        messages: &[Message],
        shape: &Shape,
        key: &str,
    ) -> Result<Vec<Triple>, AnswerError> {
        let prompt = self.model.chat_prompt(messages).map_err(regram_error)?;
        let value = self
            .model
            .generate_json(&prompt, shape, &TRIPLE_SETTINGS)
            .await
            .map_err(regram_error)?;
        Ok(regram_prompts::triples(&value, key))
    }

    /// log P(value) for `true`, `false`, `null` after the shaped reply's prefix,
    /// normalised over the three.
    async fn value_log_probs(&self, question: &str, phrase: &str) -> Result<[f64; 3], AnswerError> {
        let messages = condition_messages(question, &[phrase.to_string()]);
        let mut prompt = self.model.chat_prompt(&messages).map_err(step_error)?;
        let key = serde_json::Value::String(phrase.to_string()).to_string();
        prompt.push_str(&format!("{{{key}: "));
        let values: Vec<String> = VALUES.iter().map(|v| v.to_string()).collect();
        let scores = self
            .model
            .score(&prompt, &values)
            .await
            .map_err(step_error)?;
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
        let mut out = [0.0; 3];
        for (o, s) in out.iter_mut().zip(&scores) {
            *o = s - max - total.ln();
        }
        Ok(out)
    }
}

impl<M: LanguageModel> QuestionSteps for LlmSteps<'_, M> {
    async fn parse(&mut self, question: &str) -> Result<ParsedQuery, AnswerError> {
        self.question = question.to_string();
        Ok(parse(question))
    }

    async fn evaluate(
        &mut self,
        query: &ParsedQuery,
        phrases: &[String],
    ) -> Result<ConditionTable, AnswerError> {
        let mut table = query.patient.table(phrases.iter().map(String::as_str));
        self.last.clear();
        let unknown = unknown_phrases(&table, phrases);
        if unknown.is_empty() || query.patient_clause.is_none() {
            // Nothing to decide, or a question that says nothing about a patient:
            // every condition is unknown and the model would only guess.
            return Ok(table);
        }
        let question = self.question.clone();
        for phrase in unknown {
            let asked = self.value_log_probs(&question, &phrase).await?;
            let prior = match self.prior.get(&phrase) {
                Some(p) => *p,
                None => {
                    let p = self.value_log_probs(CONTENT_FREE, &phrase).await?;
                    self.prior.insert(phrase.clone(), p);
                    p
                }
            };
            let best = (0..3)
                .max_by(|&a, &b| asked[a].total_cmp(&asked[b]))
                .unwrap_or(2);
            let proposed = [Truth::True, Truth::False, Truth::Unknown][best];
            let probability = asked[best].exp();
            let lift = asked[best] - prior[best];
            let accepted =
                proposed != Truth::Unknown && probability >= MIN_PROBABILITY && lift >= MIN_LIFT;
            if accepted {
                table.set(&phrase, proposed);
            }
            self.last.push(Verdict {
                phrase,
                proposed,
                probability,
                lift,
                accepted,
            });
        }
        Ok(table)
    }

    async fn hypothesize(
        &mut self,
        hop: &str,
        facts: &[String],
        entities: &[String],
        relations: &[String],
    ) -> Result<Vec<Triple>, AnswerError> {
        if entities.len() < 2 || relations.is_empty() {
            return Ok(Vec::new());
        }
        self.shaped_triples(
            &regram_prompts::hypothesis_messages(hop, facts, entities, relations),
            &regram_prompts::hypothesis_shape(entities, relations),
            "Triplets",
        )
        .await
    }

    async fn revise(
        &mut self,
        triple: &Triple,
        question: &str,
        relations: &[String],
    ) -> Result<Option<Triple>, AnswerError> {
        if relations.is_empty() {
            return Ok(None);
        }
        let revised = self
            .shaped_triples(
                &regram_prompts::revision_messages(triple, question, relations),
                &regram_prompts::revision_shape(triple, relations),
                "Revised_Triplets",
            )
            .await?;
        Ok(revised.into_iter().next())
    }

    async fn guess(&mut self, hop: &str) -> Result<Option<String>, AnswerError> {
        let messages = regram_prompts::guess_messages(hop);
        let mut prompt = self.model.chat_prompt(&messages).map_err(regram_error)?;
        prompt.push_str(regram_prompts::GUESS_OPENING);
        let settings = Generate {
            max_tokens: GUESS_TOKENS,
            ..Generate::default()
        };
        let generation = self
            .model
            .generate(&prompt, &settings, |_| ControlFlow::Continue(()))
            .await
            .map_err(regram_error)?;
        Ok(Some(regram_prompts::guess_text(&generation.text)))
    }
}

/// Room for [`regram_prompts::MAX_HYPOTHESES`] triples of long entity names.
const TRIPLE_SETTINGS: Generate = Generate {
    max_tokens: 320,
    sampling: crate::llm::Sampling::Greedy,
};

/// An LLM-GUESS answer is a sentence.
const GUESS_TOKENS: usize = 48;

fn regram_error(e: crate::llm::LlmError) -> AnswerError {
    AnswerError::Step {
        step: "ReGraM's language-model step",
        message: e.to_string(),
    }
}

/// The condition-evaluation prompt of CGR Appendix G.3, with its example.
pub fn condition_messages(question: &str, conditions: &[String]) -> Vec<Message> {
    let system = "You are evaluating medical/clinical conditions against a query.\n\
        Task: For each condition extracted from the knowledge graph, determine if the \
        patient/context in the query SATISFIES that condition.\n\
        Return values:\n\
        - true: the query explicitly or implicitly indicates the condition IS satisfied\n\
        - false: the query explicitly or implicitly indicates the condition is NOT satisfied\n\
        - null: the query does not mention anything relevant (unknown)\n\
        Guidelines:\n\
        - Handle synonyms: \"in boys\" = \"male children\" = \"pediatric males\"\n\
        - Handle numeric reasoning: \"5-year-old\" means \"in adults\" is false, \"in children\" is true\n\
        - Handle implications: \"pregnant woman\" means \"during pregnancy\" is true\n\
        - Handle negations: \"no kidney disease\" means \"renal impairment\" is false\n\
        - When truly unknown, return null; do not guess.\n\
        Example:\n\
        Query: \"What antibiotic for a 5-year-old boy with pneumonia?\"\n\
        Conditions: [\"in boys\", \"in adults\", \"eGFR < 30\"]\n\
        Output: {\"in boys\": true, \"in adults\": false, \"eGFR < 30\": null}";
    let list = serde_json::to_string(conditions).unwrap_or_else(|_| "[]".to_string());
    let user = format!("Query: {question:?}\nConditions: {list}\nOutput:");
    vec![Message::new("system", system), Message::new("user", &user)]
}

/// The query-parsing output of CGR Appendix G.1 as a shape: strings and short lists of
/// strings under the paper's keys. The pipeline parses with rules (a ~135M model invents
/// conditions here); a larger model can be asked with [`query_messages`].
pub fn query_shape() -> Shape {
    let list = |max| Shape::Array {
        item: Box::new(Shape::String { max_bytes: 60 }),
        max,
    };
    Shape::object([
        ("target_type", Shape::String { max_bytes: 40 }),
        ("target_entity", Shape::String { max_bytes: 80 }),
        ("positive_attributes", list(5)),
        ("negated_entities", list(4)),
        ("required_conditions", list(4)),
        ("excluded_conditions", list(4)),
    ])
}

/// The query-parsing prompt of CGR Appendix G.1, with its examples.
pub fn query_messages(question: &str) -> Vec<Message> {
    let system = "You are a query parser for biomedical knowledge graphs. Parse the question \
        into a structured intent-aware format.\n\
        Schema:\n\
        - target_type: the kind of thing asked for\n\
        - target_entity: the main concept being asked about\n\
        - positive_attributes: properties the answer MUST have (2-5 items)\n\
        - negated_entities: entities explicitly mentioned as NOT the answer (\"distinct from\", \"other than\")\n\
        - required_conditions: conditions that MUST hold (\"in males\", \"during pregnancy\")\n\
        - excluded_conditions: conditions that must NOT be present\n\
        Examples:\n\
        \"What drug treats hypertension in pregnant women, excluding ACE inhibitors?\" -> \
        negated_entities: [\"ACE inhibitors\"], required_conditions: [\"in pregnancy\"]\n\
        \"Which gene causes cardiomyopathy in pediatric patients but not in adults?\" -> \
        required_conditions: [\"pediatric\"], excluded_conditions: [\"in adults\"]";
    vec![
        Message::new("system", system),
        Message::new("user", &format!("Question: {question:?}\nOutput:")),
    ]
}

/// The phrases (distinct, in order) the table leaves unknown, at most [`MAX_ASKED`].
fn unknown_phrases(table: &ConditionTable, phrases: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for phrase in phrases {
        let phrase = phrase.trim();
        if phrase.is_empty()
            || phrase.len() > MAX_PHRASE_BYTES
            || table.phrase(phrase) != Truth::Unknown
            || out.iter().any(|p| p == phrase)
        {
            continue;
        }
        out.push(phrase.to_string());
        if out.len() == MAX_ASKED {
            break;
        }
    }
    out
}

fn step_error(e: crate::llm::LlmError) -> AnswerError {
    AnswerError::Step {
        step: "condition evaluation",
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::ops::ControlFlow;

    use super::*;
    use crate::llm::{Generate, Generation, LlmError};

    /// A model whose likelihoods are fixed per condition, recording what it was asked:
    /// the calibration and the merge are under test here, the real model in
    /// `tests/llm_shaped.rs` and the bench.
    struct Scripted {
        /// log-likelihoods of true / false / null for the question, per phrase.
        asked: Vec<(&'static str, [f64; 3])>,
        /// ... and for the content-free query (any phrase).
        prior: [f64; 3],
        prompts: RefCell<Vec<String>>,
    }

    impl LanguageModel for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        fn chat_prompt(&self, messages: &[Message]) -> Result<String, LlmError> {
            Ok(messages.iter().map(|m| m.content.clone()).collect())
        }
        async fn generate(
            &self,
            _: &str,
            _: &Generate,
            _: impl FnMut(&str) -> ControlFlow<()>,
        ) -> Result<Generation, LlmError> {
            Err(LlmError::EmptyPrompt)
        }
        async fn score(&self, prompt: &str, candidates: &[String]) -> Result<Vec<f64>, LlmError> {
            assert_eq!(candidates, ["true", "false", "null"]);
            self.prompts.borrow_mut().push(prompt.to_string());
            if prompt.contains("Query: \"N/A\"") {
                return Ok(self.prior.to_vec());
            }
            let (_, values) = self
                .asked
                .iter()
                .find(|(p, _)| prompt.ends_with(&format!("{{\"{p}\": ")))
                .ok_or(LlmError::EmptyPrompt)?;
            Ok(values.to_vec())
        }
        async fn generate_json(
            &self,
            _: &str,
            _: &Shape,
            _: &Generate,
        ) -> Result<serde_json::Value, LlmError> {
            Err(LlmError::EmptyPrompt)
        }
    }

    const QUESTION: &str = "Which antihypertensive is preferred in a pregnant woman with a prior myocardial infarction?";

    fn run(question: &str, phrases: &[&str], model: &Scripted) -> (ConditionTable, Vec<Verdict>) {
        let phrases: Vec<String> = phrases.iter().map(|p| p.to_string()).collect();
        let mut steps = LlmSteps::new(model);
        let table = pollster::block_on(async {
            let query = steps.parse(question).await?;
            steps.evaluate(&query, &phrases).await
        })
        .unwrap();
        (table, steps.last)
    }

    fn ln(p: [f64; 3]) -> [f64; 3] {
        p.map(f64::ln)
    }

    #[test]
    fn a_verdict_the_question_raises_fills_an_unknown_condition() {
        let model = Scripted {
            asked: vec![
                ("ischemic heart disease", ln([0.9, 0.05, 0.05])),
                ("in children", ln([0.2, 0.7, 0.1])),
            ],
            prior: ln([1.0 / 3.0; 3]),
            prompts: RefCell::new(Vec::new()),
        };
        let (table, verdicts) = run(
            QUESTION,
            &["during pregnancy", "ischemic heart disease", "in children"],
            &model,
        );
        // Pregnancy is the lexicon's (true) and never put to the model.
        assert_eq!(table.phrase("during pregnancy"), Truth::True);
        assert!(model
            .prompts
            .borrow()
            .iter()
            .all(|p| !p.contains("{\"during pregnancy\"")));
        // 0.9 ≥ 0.75 but ln(0.9 / (1/3)) = 0.99 < 2.0: not lifted enough.
        assert_eq!(table.phrase("ischemic heart disease"), Truth::Unknown);
        assert_eq!(verdicts[0].proposed, Truth::True);
        assert!((verdicts[0].lift - (0.9f64 * 3.0).ln()).abs() < 1e-9);
        assert!(!verdicts[0].accepted);
        // 0.7 < 0.75 (and ln(0.7 · 3) = 0.74): not accepted either.
        assert_eq!(table.phrase("in children"), Truth::Unknown);

        let model = Scripted {
            asked: vec![("ischemic heart disease", ln([0.95, 0.03, 0.02]))],
            prior: ln([0.1, 0.2, 0.7]),
            prompts: RefCell::new(Vec::new()),
        };
        let (table, verdicts) = run(QUESTION, &["ischemic heart disease"], &model);
        // ln(0.95 / 0.1) = 2.25 ≥ 2.0 and 0.95 ≥ 0.75: accepted.
        assert!(verdicts[0].accepted, "{verdicts:?}");
        assert_eq!(table.phrase("ischemic heart disease"), Truth::True);
    }

    #[test]
    fn a_model_that_says_true_to_everything_decides_nothing() {
        let model = Scripted {
            asked: vec![("ischemic heart disease", ln([0.9, 0.05, 0.05]))],
            prior: ln([0.9, 0.05, 0.05]),
            prompts: RefCell::new(Vec::new()),
        };
        let (table, verdicts) = run(QUESTION, &["ischemic heart disease"], &model);
        assert_eq!(verdicts[0].lift, 0.0);
        assert_eq!(table.phrase("ischemic heart disease"), Truth::Unknown);
    }

    #[test]
    fn null_is_never_written_into_the_table() {
        let model = Scripted {
            asked: vec![("in children", ln([0.01, 0.01, 0.98]))],
            prior: ln([0.45, 0.45, 0.1]),
            prompts: RefCell::new(Vec::new()),
        };
        let (table, verdicts) = run(QUESTION, &["in children"], &model);
        assert_eq!(verdicts[0].proposed, Truth::Unknown);
        assert!(!verdicts[0].accepted);
        assert_eq!(table.phrase("in children"), Truth::Unknown);
    }

    #[test]
    fn a_question_about_no_patient_is_not_put_to_the_model() {
        let model = Scripted {
            asked: vec![("during pregnancy", ln([0.99, 0.005, 0.005]))],
            prior: ln([0.01, 0.01, 0.98]),
            prompts: RefCell::new(Vec::new()),
        };
        let (table, verdicts) = run(
            "What is the first-line treatment of uncomplicated cystitis?",
            &["during pregnancy"],
            &model,
        );
        assert!(verdicts.is_empty());
        assert!(model.prompts.borrow().is_empty());
        assert_eq!(table.phrase("during pregnancy"), Truth::Unknown);
    }

    #[test]
    fn the_prompt_is_the_papers_with_the_unknown_conditions() {
        let messages = condition_messages("Q?", &["in boys".into(), "eGFR < 30".into()]);
        assert_eq!(messages[0].role, "system");
        assert!(messages[0]
            .content
            .contains("When truly unknown, return null"));
        assert_eq!(
            messages[1].content,
            "Query: \"Q?\"\nConditions: [\"in boys\",\"eGFR < 30\"]\nOutput:"
        );
    }
}
