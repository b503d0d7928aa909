//! ReGraM's prompts for the steps a language model takes in a hop (paper 003, Appendix
//! A): hypothetical triples in HYBRID mode (Prompt 3), the revision of a triple the
//! Reviewer rejected (Prompt 4) and the LLM-GUESS answer (Prompt 7).
//!
//! The two triple prompts are held to shapes whose entities and relations are closed
//! sets — the region's entities V_q and the schema R — so the closed-world rule of
//! §3.3 holds by construction: the model can only choose among what exists. The paper
//! writes a triple as an array of three strings; an object with fixed keys is the same
//! triple in a form the shape matcher can close.

use crate::llm::{Message, Shape};
use crate::regram::Triple;

/// At most this many hypotheses per hop.
pub const MAX_HYPOTHESES: usize = 3;

/// At most this many entities are offered (the most relevant come first in V_q).
pub const MAX_ENTITIES: usize = 40;

/// The opening every LLM-GUESS answer has (Prompt 7), written into the reply before the
/// model continues it.
pub const GUESS_OPENING: &str = "Based on general knowledge,";

fn triple_shape(entities: &[String], relations: &[String]) -> Shape {
    let entities = &entities[..entities.len().min(MAX_ENTITIES)];
    Shape::object([
        ("head", Shape::one_of_strings(entities)),
        ("relation", Shape::one_of_strings(relations)),
        ("tail", Shape::one_of_strings(entities)),
    ])
}

/// Prompt 3's output: up to [`MAX_HYPOTHESES`] triples over `entities` and `relations`.
pub fn hypothesis_shape(entities: &[String], relations: &[String]) -> Shape {
    Shape::object([(
        "Triplets",
        Shape::Array {
            item: Box::new(triple_shape(entities, relations)),
            max: MAX_HYPOTHESES,
        },
    )])
}

/// Prompt 3, Hypothetical Triplet Generation (HYBRID mode).
pub fn hypothesis_messages(
    hop: &str,
    facts: &[String],
    entities: &[String],
    relations: &[String],
) -> Vec<Message> {
    let system = "You are a cautious biomedical reasoning expert. Your goal is to generate \
        logical triplets to answer the given sub-question.";
    let facts = match facts.is_empty() {
        true => "(none)".to_string(),
        false => facts.join("\n"),
    };
    let entities = &entities[..entities.len().min(MAX_ENTITIES)];
    let user = format!(
        "Sub-question: {hop}\n\
         Known Facts (from KG, may be empty):\n{facts}\n\
         Rules:\n\
         1. Use only the information in \"Known Facts\".\n\
         2. If insufficient, generate general, high-level plausible triplets.\n\
         3. Do not invent new entities or overly specific relations.\n\
         4. All generated triplets must use only these entities: {}\n\
         and only these relations: {}\n\
         Output (JSON only):",
        entities.join("; "),
        relations.join(", ")
    );
    vec![Message::new("system", system), Message::new("user", &user)]
}

/// Prompt 4's output: one revised triple over the input's own entities.
pub fn revision_shape(triple: &Triple, relations: &[String]) -> Shape {
    let entities = [triple.head.clone(), triple.tail.clone()];
    Shape::object([(
        "Revised_Triplets",
        Shape::Array {
            item: Box::new(triple_shape(&entities, relations)),
            max: 1,
        },
    )])
}

/// Prompt 4, Triplet Revision (Reviewer loop).
pub fn revision_messages(triple: &Triple, question: &str, relations: &[String]) -> Vec<Message> {
    let system = "You are a fact-checker verifying the factuality and usefulness of the \
        given triplet.";
    let user = format!(
        "Constraints:\n\
         - Relation MUST be one of: {}.\n\
         - Use only entities present in the input.\n\
         Triplet: [\"{}\", \"{}\", \"{}\"]\n\
         Question (context): {question}\n\
         Output (JSON only):",
        relations.join(", "),
        triple.head,
        triple.relation,
        triple.tail
    );
    vec![Message::new("system", system), Message::new("user", &user)]
}

/// Prompt 7, Hop Answer Synthesis (LLM-GUESS mode).
pub fn guess_messages(hop: &str) -> Vec<Message> {
    let system = "You are an expert biomedical researcher. No specific facts were found in \
        the KG. Based on general knowledge, provide a plausible answer beginning with \
        \"Based on general knowledge.\"";
    let user = format!("Sub-question: {hop}\nPlausible Answer:");
    vec![Message::new("system", system), Message::new("user", &user)]
}

/// The triples under `key` of a shaped reply (items that are not triples are skipped).
pub fn triples(value: &serde_json::Value, key: &str) -> Vec<Triple> {
    value
        .get(key)
        .and_then(|v| v.as_array())
        .map(|items| {
            items
                .iter()
                .filter_map(|item| {
                    let field = |k: &str| item.get(k).and_then(|v| v.as_str()).map(str::to_string);
                    Some(Triple::new(
                        field("head")?,
                        field("relation")?,
                        field("tail")?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The guess as shown: the opening, then the model's first sentence or line.
pub fn guess_text(continuation: &str) -> String {
    let line = continuation
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let end = line
        .char_indices()
        .find(|&(i, c)| c == '.' && line[i + 1..].starts_with(' '))
        .map_or(line.len(), |(i, _)| i + 1);
    format!("{GUESS_OPENING} {}", line[..end].trim())
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Matcher;

    #[test]
    fn the_hypothesis_shape_admits_only_region_entities_and_schema_relations() {
        let entities = vec!["Lyme disease".to_string(), "amoxicillin".to_string()];
        let relations = vec!["treated_by".to_string(), "is_a".to_string()];
        let shape = hypothesis_shape(&entities, &relations);
        let ok = br#"{"Triplets": [{"head": "Lyme disease", "relation": "treated_by", "tail": "amoxicillin"}]}"#;
        let mut m = Matcher::new(&shape);
        assert!(m.push(ok) && m.is_complete());
        let invented = br#"{"Triplets": [{"head": "Lyme disease", "relation": "treated_by", "tail": "ceftriaxone"}]}"#;
        assert!(!Matcher::new(&shape).accepts(invented));
        let value: serde_json::Value = serde_json::from_slice(ok).unwrap();
        assert_eq!(
            triples(&value, "Triplets"),
            vec![Triple::new("Lyme disease", "treated_by", "amoxicillin")]
        );
        assert!(triples(
            &serde_json::json!({"Triplets": [["a", "b", "c"]]}),
            "Triplets"
        )
        .is_empty());
    }

    #[test]
    fn a_guess_keeps_its_opening_and_one_sentence() {
        assert_eq!(
            guess_text(" amoxicillin is often used. It is cheap.\nMore"),
            "Based on general knowledge, amoxicillin is often used."
        );
        assert_eq!(guess_text(""), "Based on general knowledge,");
        assert_eq!(
            guess_text("\n\n about 3.5 mg daily"),
            "Based on general knowledge, about 3.5 mg daily"
        );
    }
}
