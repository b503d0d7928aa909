//! The tokenizer a GGUF file carries, rebuilt with the `tokenizers` crate: byte-level
//! BPE from `tokenizer.ggml.tokens` and `tokenizer.ggml.merges`, the pre-tokenizer the
//! file names (`smollm`: every digit alone, then the GPT-2 split), control tokens
//! (`<|im_start|>` …) as special tokens, and the chat template from the metadata.
//! Decoding goes through bytes ([`TextStream`]), so streamed text never splits a UTF-8
//! character.

use std::collections::HashMap;

use minijinja::{context, Environment};
use serde::Serialize;
use tokenizers::decoders::byte_level::ByteLevel as ByteLevelDecoder;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{AddedToken, PreTokenizerWrapper, Tokenizer};

use super::super::gguf::Gguf;
use super::LlmError;

/// One turn of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn new(role: &str, content: &str) -> Self {
        Message {
            role: role.to_string(),
            content: content.to_string(),
        }
    }
}

pub struct GgufTokenizer {
    inner: Tokenizer,
    /// Each token's bytes (byte-level pieces mapped back; control tokens as their text).
    pieces: Vec<Vec<u8>>,
    /// Control tokens: never produced from ordinary text, stripped from chat contents.
    control: Vec<(u32, String)>,
    pub bos: Option<u32>,
    pub eos: Option<u32>,
    /// Whether the file asks for a BOS token in front of every prompt.
    pub add_bos: bool,
    template: Option<String>,
}

/// GGUF token types (`tokenizer.ggml.token_type`).
const CONTROL: i64 = 3;
const USER_DEFINED: i64 = 4;

impl GgufTokenizer {
    pub fn from_gguf(file: &Gguf) -> Result<Self, LlmError> {
        let model = file.str("tokenizer.ggml.model")?;
        if model != "gpt2" {
            return Err(LlmError::Unsupported(format!(
                "tokenizer `{model}` (byte-level BPE, `gpt2`, is supported)"
            )));
        }
        let pre = file
            .get("tokenizer.ggml.pre")
            .and_then(|v| v.as_str())
            .unwrap_or("default");
        let tokens = file.strings("tokenizer.ggml.tokens")?;
        let merges = file.strings("tokenizer.ggml.merges")?;
        let types = match file.get("tokenizer.ggml.token_type") {
            Some(_) => file.integers("tokenizer.ggml.token_type")?,
            None => vec![1; tokens.len()],
        };
        if types.len() != tokens.len() {
            return Err(LlmError::Tokenizer(format!(
                "{} token types for {} tokens",
                types.len(),
                tokens.len()
            )));
        }
        let vocab: Vocab = tokens
            .iter()
            .enumerate()
            .map(|(id, t)| ((*t).to_string(), id as u32))
            .collect();
        let merges = merges
            .iter()
            .map(|m| {
                m.split_once(' ')
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .ok_or_else(|| LlmError::Tokenizer(format!("merge `{m}` has no space")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let bpe = BPE::builder()
            .vocab_and_merges(vocab, merges)
            .build()
            .map_err(|e| LlmError::Tokenizer(e.to_string()))?;
        let mut inner = Tokenizer::new(bpe);
        let byte_level = ByteLevel::new(false, true, true);
        let pre_tokenizer: PreTokenizerWrapper = match pre {
            "smollm" => Sequence::new(vec![Digits::new(true).into(), byte_level.into()]).into(),
            "gpt2" | "default" => byte_level.into(),
            other => {
                return Err(LlmError::Unsupported(format!(
                    "pre-tokenizer `{other}` (smollm and gpt2 are supported)"
                )))
            }
        };
        inner.with_pre_tokenizer(Some(pre_tokenizer));
        inner.with_decoder(Some(ByteLevelDecoder::default()));

        let control: Vec<(u32, String)> = tokens
            .iter()
            .zip(&types)
            .enumerate()
            .filter(|(_, (_, &t))| t == CONTROL || t == USER_DEFINED)
            .map(|(id, (text, _))| (id as u32, (*text).to_string()))
            .collect();
        inner
            .add_special_tokens(
                control
                    .iter()
                    .map(|(_, text)| AddedToken::from(text.clone(), true)),
            )
            .map_err(|e| LlmError::Tokenizer(e.to_string()))?;

        let chars = char_bytes();
        let pieces = tokens
            .iter()
            .zip(&types)
            .map(|(text, &t)| match t {
                CONTROL | USER_DEFINED => text.as_bytes().to_vec(),
                _ => text
                    .chars()
                    .map(|c| chars.get(&c).copied())
                    .collect::<Option<Vec<u8>>>()
                    // A piece outside the byte alphabet is taken as its own text.
                    .unwrap_or_else(|| text.as_bytes().to_vec()),
            })
            .collect();
        let id = |key: &str| {
            file.get(key)
                .and_then(|v| v.as_u64())
                .and_then(|v| u32::try_from(v).ok())
                .filter(|&v| (v as usize) < tokens.len())
        };
        Ok(GgufTokenizer {
            inner,
            pieces,
            control,
            bos: id("tokenizer.ggml.bos_token_id"),
            eos: id("tokenizer.ggml.eos_token_id"),
            add_bos: matches!(
                file.get("tokenizer.ggml.add_bos_token"),
                Some(super::super::gguf::Value::Bool(true))
            ),
            template: file
                .get("tokenizer.chat_template")
                .and_then(|v| v.as_str())
                .map(str::to_string),
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.pieces.len()
    }

    /// Token ids of `text`; control tokens written in the text (`<|im_start|>`) become
    /// their ids. A BOS token is put in front when the file asks for one.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, LlmError> {
        let encoding = self
            .inner
            .encode(text, false)
            .map_err(|e| LlmError::Tokenizer(e.to_string()))?;
        let mut ids = Vec::with_capacity(encoding.len() + 1);
        if self.add_bos {
            ids.extend(self.bos);
        }
        ids.extend_from_slice(encoding.get_ids());
        Ok(ids)
    }

    /// Token ids of a continuation of a prompt (no BOS in front).
    pub fn encode_plain(&self, text: &str) -> Result<Vec<u32>, LlmError> {
        let encoding = self
            .inner
            .encode(text, false)
            .map_err(|e| LlmError::Tokenizer(e.to_string()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The bytes token `id` stands for (empty for an id outside the vocabulary).
    pub fn piece(&self, id: u32) -> &[u8] {
        self.pieces.get(id as usize).map_or(&[], Vec::as_slice)
    }

    /// The text of `ids`; bytes that do not form UTF-8 are replaced.
    pub fn decode(&self, ids: &[u32]) -> String {
        let bytes: Vec<u8> = ids.iter().flat_map(|&id| self.piece(id).to_vec()).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Whether `id` is a control token (never part of ordinary text).
    pub fn is_control(&self, id: u32) -> bool {
        self.control.binary_search_by_key(&id, |(c, _)| *c).is_ok()
    }

    /// The id of a control token by its text (`<|im_end|>`).
    pub fn control(&self, text: &str) -> Option<u32> {
        self.control
            .iter()
            .find(|(_, t)| t == text)
            .map(|(id, _)| *id)
    }

    /// The conversation rendered with the file's chat template (ChatML when the file
    /// has none), ending with the assistant's turn opened when `open_reply`. Control
    /// tokens inside message contents are removed first: a document cannot close a turn
    /// or open a new one.
    pub fn chat(&self, messages: &[Message], open_reply: bool) -> Result<String, LlmError> {
        let clean: Vec<Message> = messages
            .iter()
            .map(|m| Message {
                role: m.role.clone(),
                content: self.strip_control(&m.content),
            })
            .collect();
        let template = self.template.as_deref().unwrap_or(CHATML);
        let mut env = Environment::new();
        env.add_function(
            "raise_exception",
            |msg: String| -> Result<String, minijinja::Error> {
                Err(minijinja::Error::new(
                    minijinja::ErrorKind::InvalidOperation,
                    msg,
                ))
            },
        );
        env.add_template("chat", template)
            .map_err(|e| LlmError::Template(e.to_string()))?;
        let bos = self
            .bos
            .map(|id| String::from_utf8_lossy(self.piece(id)).into_owned());
        let eos = self
            .eos
            .map(|id| String::from_utf8_lossy(self.piece(id)).into_owned());
        env.get_template("chat")
            .and_then(|t| {
                t.render(context! {
                    messages => clean,
                    add_generation_prompt => open_reply,
                    bos_token => bos.unwrap_or_default(),
                    eos_token => eos.unwrap_or_default(),
                })
            })
            .map_err(|e| LlmError::Template(e.to_string()))
    }

    fn strip_control(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (_, t) in &self.control {
            if !t.is_empty() && out.contains(t.as_str()) {
                out = out.replace(t.as_str(), "");
            }
        }
        out
    }
}

/// ChatML, for files without a template.
const CHATML: &str = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

/// Streamed text: bytes of generated tokens in, whole characters out.
#[derive(Debug, Default)]
pub struct TextStream {
    pending: Vec<u8>,
}

impl TextStream {
    /// Adds a token's bytes and returns the text that is now complete.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) => match e.error_len() {
                // An incomplete character at the end waits for the next token.
                None => e.valid_up_to(),
                // Bytes that can never become UTF-8 are replaced and passed on.
                Some(_) => self.pending.len(),
            },
        };
        let out: Vec<u8> = self.pending.drain(..valid).collect();
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Whatever is left at the end (an unfinished character, replaced).
    pub fn finish(&mut self) -> String {
        let out = std::mem::take(&mut self.pending);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// GPT-2's byte-level alphabet, read backwards: each printable stand-in character to
/// the byte it encodes.
fn char_bytes() -> HashMap<char, u8> {
    let mut printable: Vec<u32> = ('!' as u32..='~' as u32).collect();
    printable.extend('¡' as u32..='¬' as u32);
    printable.extend('®' as u32..='ÿ' as u32);
    let mut out = HashMap::with_capacity(256);
    let mut extra = 0;
    for b in 0..=255u32 {
        let c = if printable.contains(&b) {
            b
        } else {
            extra += 1;
            255 + extra
        };
        if let Some(c) = char::from_u32(c) {
            out.insert(c, b as u8);
        }
    }
    out
}
