//! Exports of an answer: the graph around the question as JSON and as GraphML (for
//! Gephi, yEd, Cytoscape), and the answer with its evidence as JSON. The page builds
//! them and saves them through a download link; nothing is sent anywhere.

use crate::protocol::AnswerView;
use serde_json::json;

/// The graph: nodes (label, role, layer) and edges (subject, relation, object,
/// conditions, blocked by, evidence).
pub fn graph_json(view: &AnswerView) -> String {
    let value = json!({
        "question": view.question,
        "nodes": view.nodes,
        "edges": view.edges,
    });
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// The answer, its citations, evidence paths and condition table.
pub fn answer_json(view: &AnswerView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_default()
}

/// The graph as GraphML: one node per entity, one directed edge per statement with its
/// relation, conditions, state (kept / blocked) and blocking condition as data keys.
pub fn graphml(view: &AnswerView) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n\
         \x20 <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n\
         \x20 <key id=\"role\" for=\"node\" attr.name=\"role\" attr.type=\"string\"/>\n\
         \x20 <key id=\"layer\" for=\"node\" attr.name=\"layer\" attr.type=\"int\"/>\n\
         \x20 <key id=\"relation\" for=\"edge\" attr.name=\"relation\" attr.type=\"string\"/>\n\
         \x20 <key id=\"conditions\" for=\"edge\" attr.name=\"conditions\" attr.type=\"string\"/>\n\
         \x20 <key id=\"state\" for=\"edge\" attr.name=\"state\" attr.type=\"string\"/>\n\
         \x20 <key id=\"blocked_by\" for=\"edge\" attr.name=\"blocked_by\" attr.type=\"string\"/>\n\
         \x20 <key id=\"evidence\" for=\"edge\" attr.name=\"evidence\" attr.type=\"string\"/>\n\
         \x20 <graph id=\"G\" edgedefault=\"directed\">\n",
    );
    for (i, n) in view.nodes.iter().enumerate() {
        out.push_str(&format!(
            "    <node id=\"n{i}\"><data key=\"label\">{}</data><data key=\"role\">{}</data><data key=\"layer\">{}</data></node>\n",
            escape(&n.label),
            escape(&n.role),
            n.layer
        ));
    }
    for (i, e) in view.edges.iter().enumerate() {
        let conditions = e
            .edge
            .conditions
            .iter()
            .map(|c| format!("{}{}", if c.negated { "not " } else { "" }, c.phrase))
            .collect::<Vec<_>>()
            .join("; ");
        let evidence = e
            .edge
            .citations
            .iter()
            .map(|c| c.text.as_str())
            .collect::<Vec<_>>()
            .join(" | ");
        let (state, by) = match &e.blocked {
            Some(b) => (
                "blocked",
                format!("{}{}", if b.negated { "not " } else { "" }, b.condition),
            ),
            None => ("kept", String::new()),
        };
        out.push_str(&format!(
            "    <edge id=\"e{i}\" source=\"n{}\" target=\"n{}\"><data key=\"relation\">{}</data><data key=\"conditions\">{}</data><data key=\"state\">{state}</data><data key=\"blocked_by\">{}</data><data key=\"evidence\">{}</data></edge>\n",
            e.from,
            e.to,
            escape(&e.edge.relation),
            escape(&conditions),
            escape(&by),
            escape(&evidence)
        ));
    }
    out.push_str("  </graph>\n</graphml>\n");
    out
}

/// Text made safe for XML content and attributes; characters XML 1.0 forbids are
/// dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Blocked, Citation, Edge, EdgeCondition, GraphEdge, Node, Truth};

    fn view() -> AnswerView {
        let node = |label: &str, role: &str, layer| Node {
            label: label.into(),
            role: role.into(),
            layer,
            order: 0,
        };
        AnswerView {
            question: "Lyme <pregnant> & \"safe\"?".into(),
            answer: Some("amoxicillin".into()),
            source: "paths".into(),
            citations: Vec::new(),
            paths: Vec::new(),
            table: Vec::new(),
            nodes: vec![
                node("Lyme disease", "entry", 0),
                node("doxy <cycline>", "other", 1),
            ],
            edges: vec![GraphEdge {
                from: 0,
                to: 1,
                edge: Edge {
                    id: 3,
                    subject: "Lyme disease".into(),
                    relation: "treated_by".into(),
                    object: "doxy <cycline>".into(),
                    conditions: vec![EdgeCondition {
                        phrase: "pregnancy".into(),
                        negated: true,
                        truth: Truth::False,
                    }],
                    citations: vec![Citation {
                        doc: 0,
                        doc_name: "a.txt".into(),
                        start: 0,
                        end: 5,
                        text: "Tom's \u{1} \"quote\" & more".into(),
                    }],
                },
                blocked: Some(Blocked {
                    condition: "pregnancy".into(),
                    negated: true,
                }),
                confidence: None,
            }],
            layers: 2,
            embedded: 0,
            embedder: "lexical".into(),
            embedder_note: None,
            cache: Default::default(),
            millis: 1.0,
            documents: 1,
            tuples: 1,
            graph_edges: 1,
            strategy: Default::default(),
            verdict: None,
        }
    }

    #[test]
    fn graphml_escapes_text_and_keeps_the_blocked_state() {
        let xml = graphml(&view());
        assert!(xml.contains("<node id=\"n1\"><data key=\"label\">doxy &lt;cycline&gt;</data>"));
        assert!(xml.contains("<edge id=\"e0\" source=\"n0\" target=\"n1\">"));
        assert!(xml.contains("<data key=\"conditions\">not pregnancy</data>"));
        assert!(xml.contains(
            "<data key=\"state\">blocked</data><data key=\"blocked_by\">not pregnancy</data>"
        ));
        // The control character is dropped; quotes, apostrophes and ampersands escaped.
        assert!(xml.contains("Tom&apos;s  &quot;quote&quot; &amp; more"));
        // Every element opened is closed, in order.
        let mut stack: Vec<String> = Vec::new();
        for tag in xml.split('<').skip(1) {
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_alphanumeric())
                .collect();
            if tag.starts_with('?') || tag.trim_end().ends_with("/>") {
                continue;
            }
            if tag.starts_with('/') {
                assert_eq!(stack.pop().as_deref(), Some(name.as_str()), "{xml}");
            } else {
                stack.push(name);
            }
        }
        assert!(stack.is_empty(), "{stack:?}");
    }

    #[test]
    fn json_exports_read_back() {
        let v = view();
        let graph: serde_json::Value = serde_json::from_str(&graph_json(&v)).unwrap();
        assert_eq!(graph["edges"][0]["blocked"]["condition"], "pregnancy");
        assert_eq!(graph["nodes"][1]["label"], "doxy <cycline>");
        let answer: AnswerView = serde_json::from_str(&answer_json(&v)).unwrap();
        assert_eq!(answer, v);
    }
}
