//! The prompt for explaining an answer in words, one of the few things a ~135M model
//! does reliably: restate given facts in a few sentences. The model gets only what the
//! answer already shows — its evidence paths, each edge with the sentence that states
//! it, and the edges the patient's condition blocked with the condition that blocked
//! each — so the explanation cannot bring in anything the user cannot check.

use super::{Answer, EdgeView};
use crate::llm::Message;

/// Evidence edges and blocked edges the prompt lists at most (a small model's context
/// is short and its attention shorter).
const MAX_FACTS: usize = 6;
const MAX_BLOCKED: usize = 4;

/// Chat messages asking for an explanation of `answer` to `question`.
pub fn explanation_messages(question: &str, answer: &Answer) -> Vec<Message> {
    let system = "You explain the answer to a clinical question to a clinician in at most \
        three short sentences. Use only the facts listed. Say why the answer fits this \
        patient and, if options were blocked, why they do not. Do not add facts.";
    let mut user = format!(
        "Question: {}\nAnswer: {}\nFacts:\n",
        question.trim(),
        answer.text().unwrap_or("insufficient evidence")
    );
    let mut seen = Vec::new();
    for edge in answer.evidence.iter().flat_map(|p| p.edges.iter()) {
        if seen.len() == MAX_FACTS {
            break;
        }
        if seen.contains(&edge.id) {
            continue;
        }
        seen.push(edge.id);
        user.push_str(&format!("- {}\n", fact(edge)));
    }
    if seen.is_empty() {
        for c in answer.read_from.iter().take(MAX_FACTS) {
            user.push_str(&format!("- \"{}\"\n", c.text.trim()));
        }
    }
    if !answer.blocked.is_empty() {
        user.push_str("Blocked for this patient:\n");
        for b in answer.blocked.iter().take(MAX_BLOCKED) {
            let why = match b.negated {
                true => format!("not given when {}", b.condition),
                false => format!("only when {}", b.condition),
            };
            user.push_str(&format!(
                "- {} {} {} ({why})\n",
                b.edge.subject,
                b.edge.relation.replace('_', " "),
                b.edge.object
            ));
        }
    }
    user.push_str("Explanation:");
    vec![Message::new("system", system), Message::new("user", &user)]
}

/// How the explanation begins: written into the assistant's turn before the model
/// continues it, so a small model gives reasons instead of repeating the answer.
pub fn explanation_opening(answer: &Answer) -> String {
    match answer.text() {
        Some(t) => format!("{t} fits this patient because"),
        None => "The documents do not settle this because".to_string(),
    }
}

/// An edge as a line of the prompt: the triple, then the sentence that states it.
fn fact(edge: &EdgeView) -> String {
    let triple = format!(
        "{} {} {}",
        edge.subject,
        edge.relation.replace('_', " "),
        edge.object
    );
    match edge.citations.first() {
        Some(c) => format!("{triple}: \"{}\"", c.text.trim()),
        None => triple,
    }
}
