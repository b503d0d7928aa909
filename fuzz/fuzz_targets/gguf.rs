//! Arbitrary bytes as a GGUF language model: the reader, every tensor read back, the
//! configuration and tokenizer, and — when the bytes hold a whole (tiny) model — loading
//! it and generating a few tokens. Nothing may panic; every failure must be an error
//! value.
#![no_main]

use std::ops::ControlFlow;

use engine::compute::Compute;
use engine::model::gguf::Gguf;
use engine::model::llama::{Generate, GgufTokenizer, LlamaConfig, LlamaModel, Message};
use engine::model::Precision;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = Gguf::parse(data) else {
        return;
    };
    for info in file.tensors() {
        let _ = file.f32(&info.name);
    }
    let _ = LlamaConfig::from_gguf(&file);
    if let Ok(tokenizer) = GgufTokenizer::from_gguf(&file) {
        let _ = tokenizer.encode("Hi <|im_start|> 12 ünï");
        let _ = tokenizer.chat(&[Message::new("user", "hello")], true);
        let _ = tokenizer.decode(&[0, 1, 2, u32::MAX]);
    }
    if let Ok(model) = LlamaModel::load("fuzz", data, Precision::F32, &Compute::cpu()) {
        if let Ok(ids) = model.tokenize("a b") {
            let settings = Generate {
                max_tokens: 3,
                ..Generate::default()
            };
            let _ = pollster::block_on(model.generate(&ids, &settings, |_| ControlFlow::Continue(())));
            let _ = pollster::block_on(model.score(&ids, &[vec![0, 1], vec![]]));
        }
    }
});
