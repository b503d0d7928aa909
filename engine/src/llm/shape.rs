//! JSON shapes a small model's output is held to, and the byte-level matcher that says,
//! after any prefix, which continuations stay inside the shape.
//!
//! A ~135M model asked for JSON writes prose, forgets a brace or invents a field. Held to
//! a shape — fixed keys in a fixed order, values from a closed set, strings of bounded
//! length, arrays of bounded size — every token it can pick keeps the output valid, so
//! the result always parses and the model only decides what it is good at: the values.
//!
//! The matcher reads bytes, not characters, because tokens are byte sequences: a token
//! may hold half of a multi-byte character (accepted inside strings, where the bytes of a
//! character are never split from each other by anything else).

/// A JSON value's allowed form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// An object with exactly these keys, in this order.
    Object(Vec<(String, Shape)>),
    /// An array of up to `max` items of one shape.
    Array { item: Box<Shape>, max: usize },
    /// A string of at most `max_bytes` bytes (escapes count as one), no control
    /// characters.
    String { max_bytes: usize },
    /// One of these JSON literals, written exactly (`true`, `null`, `"maybe"`, `3`).
    OneOf(Vec<String>),
}

impl Shape {
    /// `true` or `false`.
    pub fn boolean() -> Shape {
        Shape::OneOf(vec!["true".into(), "false".into()])
    }

    /// `true`, `false` or `null` — CGR's condition values (Appendix G.3).
    pub fn truth() -> Shape {
        Shape::OneOf(vec!["true".into(), "false".into(), "null".into()])
    }

    /// One of these strings, each written as a JSON string.
    pub fn one_of_strings<S: AsRef<str>>(options: &[S]) -> Shape {
        Shape::OneOf(
            options
                .iter()
                .map(|o| serde_json::Value::String(o.as_ref().to_string()).to_string())
                .collect(),
        )
    }

    /// An object with these keys in order.
    pub fn object<K: AsRef<str>>(fields: impl IntoIterator<Item = (K, Shape)>) -> Shape {
        Shape::Object(
            fields
                .into_iter()
                .map(|(k, s)| (k.as_ref().to_string(), s))
                .collect(),
        )
    }
}

/// Where a byte stream stands inside a [`Shape`]: feed it bytes with
/// [`push`](Matcher::push); a byte it refuses leaves it unchanged.
#[derive(Debug, Clone)]
pub struct Matcher<'s> {
    stack: Vec<Frame<'s>>,
    /// Whitespace bytes in a row between structural tokens (bounded so a model cannot
    /// wander off in indentation).
    spaces: u8,
}

/// Whitespace allowed in a row between tokens of the JSON text ("\n    " fits).
const MAX_SPACES: u8 = 6;

#[derive(Debug, Clone)]
enum Frame<'s> {
    /// A value of this shape is expected next.
    Value(&'s Shape),
    /// Inside one of several literals; `alive` are those the bytes so far still match.
    Literal {
        options: &'s [String],
        alive: Vec<bool>,
        at: usize,
    },
    /// After a string's opening quote.
    Str {
        len: usize,
        max: usize,
        escape: bool,
    },
    /// Inside a field's key written as a JSON string (quotes and escapes included),
    /// `at` bytes of it matched.
    Key { quoted: Vec<u8>, at: usize },
    Object {
        fields: &'s [(String, Shape)],
        field: usize,
        stage: ObjectStage,
    },
    Array {
        item: &'s Shape,
        max: usize,
        count: usize,
        stage: ArrayStage,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ObjectStage {
    Open,
    BeforeKey,
    Colon,
    AfterValue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArrayStage {
    Open,
    First,
    AfterItem,
    Next,
}

impl<'s> Matcher<'s> {
    pub fn new(shape: &'s Shape) -> Self {
        Matcher {
            stack: vec![Frame::Value(shape)],
            spaces: 0,
        }
    }

    /// Whether the text so far is one whole value of the shape.
    pub fn is_complete(&self) -> bool {
        match self.stack.as_slice() {
            [] => true,
            // A literal that is whole and that no longer option extends.
            [Frame::Literal { options, alive, at }] => {
                options.iter().zip(alive).any(|(o, &a)| a && o.len() == *at)
            }
            _ => false,
        }
    }

    /// Accepts `bytes` if all of them keep the text inside the shape; on refusal the
    /// matcher is left as it was.
    pub fn push(&mut self, bytes: &[u8]) -> bool {
        let mut next = self.clone();
        for &b in bytes {
            if !next.push_byte(b) {
                return false;
            }
        }
        *self = next;
        true
    }

    /// Whether `bytes` would be accepted, without changing the matcher.
    pub fn accepts(&self, bytes: &[u8]) -> bool {
        self.clone().push(bytes)
    }

    fn push_byte(&mut self, b: u8) -> bool {
        let space = matches!(b, b' ' | b'\n' | b'\t' | b'\r');
        loop {
            let Some(top) = self.stack.last_mut() else {
                return false;
            };
            match top {
                Frame::Value(shape) => {
                    if space {
                        return self.space();
                    }
                    let shape: &'s Shape = shape;
                    let frame = match shape {
                        Shape::Object(fields) => Frame::Object {
                            fields,
                            field: 0,
                            stage: ObjectStage::Open,
                        },
                        Shape::Array { item, max } => Frame::Array {
                            item,
                            max: *max,
                            count: 0,
                            stage: ArrayStage::Open,
                        },
                        Shape::String { max_bytes } => {
                            if b != b'"' {
                                return false;
                            }
                            *top = Frame::Str {
                                len: 0,
                                max: *max_bytes,
                                escape: false,
                            };
                            self.spaces = 0;
                            return true;
                        }
                        Shape::OneOf(options) => Frame::Literal {
                            options,
                            alive: vec![true; options.len()],
                            at: 0,
                        },
                    };
                    *top = frame;
                    // The new frame takes this byte.
                }
                Frame::Literal { options, alive, at } => {
                    let continues: Vec<bool> = options
                        .iter()
                        .zip(alive.iter())
                        .map(|(o, &a)| a && o.as_bytes().get(*at) == Some(&b))
                        .collect();
                    if continues.iter().any(|&c| c) {
                        *alive = continues;
                        *at += 1;
                        self.spaces = 0;
                        return true;
                    }
                    let whole = options
                        .iter()
                        .zip(alive.iter())
                        .any(|(o, &a)| a && o.len() == *at);
                    if !whole {
                        return false;
                    }
                    // The literal ended before this byte: its parent takes it.
                    self.stack.pop();
                }
                Frame::Str { len, max, escape } => {
                    if *escape {
                        if !b"\"\\/bfnrt".contains(&b) {
                            return false;
                        }
                        *escape = false;
                        *len += 1;
                    } else if b == b'"' {
                        self.stack.pop();
                    } else if b < 0x20 || *len >= *max {
                        return false;
                    } else if b == b'\\' {
                        *escape = true;
                    } else {
                        *len += 1;
                    }
                    self.spaces = 0;
                    return true;
                }
                Frame::Key { quoted, at } => {
                    if quoted.get(*at) != Some(&b) {
                        return false;
                    }
                    *at += 1;
                    if *at == quoted.len() {
                        self.stack.pop();
                    }
                    self.spaces = 0;
                    return true;
                }
                Frame::Object {
                    fields,
                    field,
                    stage,
                } => {
                    if space {
                        return self.space();
                    }
                    let fields: &'s [(String, Shape)] = fields;
                    match *stage {
                        ObjectStage::Open => {
                            if b != b'{' {
                                return false;
                            }
                            *stage = ObjectStage::BeforeKey;
                        }
                        ObjectStage::BeforeKey => match fields.get(*field) {
                            None => {
                                if b != b'}' {
                                    return false;
                                }
                                self.stack.pop();
                            }
                            Some((key, _)) => {
                                if b != b'"' {
                                    return false;
                                }
                                *stage = ObjectStage::Colon;
                                let quoted = serde_json::Value::String(key.clone())
                                    .to_string()
                                    .into_bytes();
                                self.stack.push(Frame::Key { quoted, at: 1 });
                            }
                        },
                        ObjectStage::Colon => {
                            if b != b':' {
                                return false;
                            }
                            *stage = ObjectStage::AfterValue;
                            let shape = &fields[*field].1;
                            self.stack.push(Frame::Value(shape));
                        }
                        ObjectStage::AfterValue => {
                            if *field + 1 < fields.len() {
                                if b != b',' {
                                    return false;
                                }
                                *field += 1;
                                *stage = ObjectStage::BeforeKey;
                            } else {
                                if b != b'}' {
                                    return false;
                                }
                                self.stack.pop();
                            }
                        }
                    }
                    self.spaces = 0;
                    return true;
                }
                Frame::Array {
                    item,
                    max,
                    count,
                    stage,
                } => {
                    if space {
                        return self.space();
                    }
                    let item: &'s Shape = item;
                    match *stage {
                        ArrayStage::Open => {
                            if b != b'[' {
                                return false;
                            }
                            *stage = ArrayStage::First;
                        }
                        ArrayStage::First | ArrayStage::Next => {
                            if b == b']' && *stage == ArrayStage::First {
                                self.stack.pop();
                            } else if *count >= *max {
                                return false;
                            } else {
                                *count += 1;
                                *stage = ArrayStage::AfterItem;
                                self.stack.push(Frame::Value(item));
                                // The item takes this byte.
                                continue;
                            }
                        }
                        ArrayStage::AfterItem => {
                            if b == b',' && *count < *max {
                                *stage = ArrayStage::Next;
                            } else if b == b']' {
                                self.stack.pop();
                            } else {
                                return false;
                            }
                        }
                    }
                    self.spaces = 0;
                    return true;
                }
            }
        }
    }

    fn space(&mut self) -> bool {
        if self.spaces >= MAX_SPACES {
            return false;
        }
        self.spaces += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts_whole(shape: &Shape, text: &str) -> bool {
        let mut m = Matcher::new(shape);
        m.push(text.as_bytes()) && m.is_complete()
    }

    fn conditions() -> Shape {
        Shape::object([("in boys", Shape::truth()), ("eGFR < 30", Shape::truth())])
    }

    #[test]
    fn accepts_the_papers_condition_output() {
        let shape = conditions();
        assert!(accepts_whole(
            &shape,
            r#"{"in boys": true, "eGFR < 30": null}"#
        ));
        assert!(accepts_whole(
            &shape,
            "{\n  \"in boys\":false,\n  \"eGFR < 30\" : true\n}"
        ));
    }

    #[test]
    fn refuses_what_leaves_the_shape() {
        let shape = conditions();
        // Wrong key order, an unknown value, a missing field, trailing text, prose.
        assert!(!accepts_whole(
            &shape,
            r#"{"eGFR < 30": null, "in boys": true}"#
        ));
        assert!(!accepts_whole(
            &shape,
            r#"{"in boys": maybe, "eGFR < 30": null}"#
        ));
        assert!(!accepts_whole(&shape, r#"{"in boys": true}"#));
        assert!(!Matcher::new(&shape).accepts(br#"{"in boys": true, "eGFR < 30": null}x"#));
        assert!(!Matcher::new(&shape).accepts(b"The patient"));
    }

    #[test]
    fn a_prefix_is_accepted_but_not_complete() {
        let shape = conditions();
        let mut m = Matcher::new(&shape);
        assert!(m.push(br#"{"in bo"#));
        assert!(!m.is_complete());
        assert!(m.push(br#"ys": tr"#));
        // "tr" can only go on as "true".
        assert!(!m.accepts(b"ue,x"));
        assert!(m.accepts(br#"ue, "e"#));
    }

    #[test]
    fn a_refused_push_changes_nothing() {
        let shape = conditions();
        let mut m = Matcher::new(&shape);
        assert!(m.push(b"{"));
        assert!(!m.push(b"\"in boys\": yes"));
        assert!(m.push(br#""in boys": true, "eGFR < 30": false}"#));
        assert!(m.is_complete());
    }

    #[test]
    fn strings_are_bounded_and_escaped() {
        let shape = Shape::String { max_bytes: 5 };
        assert!(accepts_whole(&shape, r#""abcde""#));
        assert!(!accepts_whole(&shape, r#""abcdef""#));
        assert!(accepts_whole(&shape, r#""a\"b""#));
        assert!(!Matcher::new(&shape).accepts(b"\"a\nb"));
        assert!(!Matcher::new(&shape).accepts(br#""\x""#));
        // Multi-byte UTF-8 inside a string, even split across pushes.
        let mut m = Matcher::new(&shape);
        let e = "é".as_bytes();
        assert!(m.push(&[b'"', e[0]]));
        assert!(m.push(&[e[1], b'"']));
        assert!(m.is_complete());
    }

    #[test]
    fn arrays_are_bounded() {
        let shape = Shape::Array {
            item: Box::new(Shape::String { max_bytes: 10 }),
            max: 2,
        };
        assert!(accepts_whole(&shape, "[]"));
        assert!(accepts_whole(&shape, r#"["a", "b"]"#));
        assert!(!accepts_whole(&shape, r#"["a", "b", "c"]"#));
        assert!(!accepts_whole(&shape, r#"["a",]"#));
    }

    #[test]
    fn literals_that_prefix_each_other() {
        let shape = Shape::OneOf(vec!["1".into(), "10".into()]);
        assert!(accepts_whole(&shape, "1"));
        assert!(accepts_whole(&shape, "10"));
        assert!(!accepts_whole(&shape, "100"));
        let list = Shape::Array {
            item: Box::new(shape),
            max: 3,
        };
        assert!(accepts_whole(&list, "[1,10, 1]"));
    }

    #[test]
    fn keys_are_escaped() {
        let shape = Shape::object([("a \"b\"", Shape::boolean())]);
        assert!(accepts_whole(&shape, r#"{"a \"b\"": true}"#));
        let text = r#"{"a \"b\"": false}"#;
        let parsed: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(parsed["a \"b\""], false);
    }

    #[test]
    fn whitespace_runs_are_bounded() {
        let shape = conditions();
        assert!(!Matcher::new(&shape).accepts(b"{          "));
    }

    /// A random walk through the shape, one allowed byte at a time (the bytes a
    /// tokenizer's byte-level pieces can always spell), ends in text that is complete
    /// and parses as JSON of the shape: the matcher never dead-ends.
    fn walk(shape: &Shape, choices: &[u8]) -> String {
        let mut m = Matcher::new(shape);
        let mut text = Vec::new();
        let mut step = 0;
        while !m.is_complete() {
            let allowed: Vec<u8> = (0..=255u8).filter(|&b| m.accepts(&[b])).collect();
            assert!(
                !allowed.is_empty(),
                "dead end after {:?}",
                String::from_utf8_lossy(&text)
            );
            // Past the budget of choices, close things as soon as possible: prefer
            // structural bytes that end values.
            let pick = match choices.get(step) {
                Some(&c) => allowed[c as usize % allowed.len()],
                None => *allowed
                    .iter()
                    .find(|b| b"\"]}el0".contains(b))
                    .unwrap_or(&allowed[0]),
            };
            assert!(m.push(&[pick]));
            text.push(pick);
            step += 1;
            assert!(
                step < 10_000,
                "no end: {:?}",
                String::from_utf8_lossy(&text)
            );
        }
        String::from_utf8_lossy(&text).into_owned()
    }

    fn conforms(shape: &Shape, v: &serde_json::Value) -> bool {
        match shape {
            Shape::Object(fields) => v.as_object().is_some_and(|o| {
                o.len() == fields.len()
                    && fields
                        .iter()
                        .all(|(k, s)| o.get(k).is_some_and(|x| conforms(s, x)))
            }),
            Shape::Array { item, max } => v
                .as_array()
                .is_some_and(|a| a.len() <= *max && a.iter().all(|x| conforms(item, x))),
            Shape::String { .. } => v.is_string(),
            Shape::OneOf(options) => options
                .iter()
                .any(|o| serde_json::from_str::<serde_json::Value>(o).ok().as_ref() == Some(v)),
        }
    }

    fn arbitrary_shape() -> impl proptest::strategy::Strategy<Value = Shape> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Shape::truth()),
            Just(Shape::one_of_strings(&["yes", "no", "maybe"])),
            Just(Shape::OneOf(vec!["1".into(), "10".into(), "2".into()])),
            (0usize..6).prop_map(|max_bytes| Shape::String { max_bytes }),
        ];
        leaf.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                (inner.clone(), 0usize..3).prop_map(|(item, max)| Shape::Array {
                    item: Box::new(item),
                    max
                }),
                proptest::collection::vec(("[a-z \"\\\\é]{0,4}", inner), 0..3).prop_map(|fields| {
                    // Keys are distinct in an object.
                    let mut seen = std::collections::BTreeSet::new();
                    Shape::Object(
                        fields
                            .into_iter()
                            .filter(|(k, _)| seen.insert(k.clone()))
                            .collect(),
                    )
                }),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn random_walks_end_in_json_of_the_shape(
            shape in arbitrary_shape(),
            choices in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
        ) {
            let text = walk(&shape, &choices);
            let value: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{text:?}: {e}")))?;
            proptest::prop_assert!(conforms(&shape, &value), "{text} does not conform to {shape:?}");
        }

        #[test]
        fn arbitrary_bytes_never_panic(
            shape in arbitrary_shape(),
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        ) {
            let mut m = Matcher::new(&shape);
            for chunk in bytes.chunks(3) {
                let _ = m.push(chunk);
                let _ = m.is_complete();
            }
        }
    }

    #[test]
    fn nested_query_shape() {
        let shape = Shape::object([
            ("target_type", Shape::String { max_bytes: 30 }),
            (
                "required_conditions",
                Shape::Array {
                    item: Box::new(Shape::String { max_bytes: 40 }),
                    max: 3,
                },
            ),
            ("answer", Shape::one_of_strings(&["yes", "no"])),
        ]);
        assert!(accepts_whole(
            &shape,
            r#"{"target_type": "drug", "required_conditions": ["in pregnancy"], "answer": "no"}"#
        ));
        let parsed: serde_json::Value = serde_json::from_str(
            r#"{"target_type": "drug", "required_conditions": ["in pregnancy"], "answer": "no"}"#,
        )
        .unwrap();
        assert_eq!(parsed["required_conditions"][0], "in pregnancy");
    }
}
