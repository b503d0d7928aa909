//! The models the worker runs, as the user chose them: the ones this site ships (from
//! `models/manifest.json`) or a file the user points to — a Llama/Qwen2 GGUF for the LLM,
//! a BERT-family folder (`config.json`, `model.safetensors`, `tokenizer.json`) for the
//! embedder. A model from a URL is checked before it is downloaded (its size from the
//! server, its header read from the first bytes) against what this browser can hold,
//! and its sha256 is recorded when it arrives, so every later load is verified like the
//! shipped files are.

use engine::model::footprint::{Footprint, Placement};
use serde::{Deserialize, Serialize};

use crate::manifest::{human_size, ModelEntry};

/// What a model is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The sentence embedder that ranks evidence paths.
    Embedder,
    /// The small LLM that explains an answer in words.
    Llm,
}

impl Role {
    pub fn id(self) -> &'static str {
        match self {
            Role::Embedder => "embedder",
            Role::Llm => "llm",
        }
    }

    /// The files a model of this role is made of (an LLM: one GGUF, named by its URL).
    pub fn label(self) -> &'static str {
        match self {
            Role::Embedder => "sentence embedder",
            Role::Llm => "language model",
        }
    }
}

/// Where a model comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// This site's `models/`, listed in its manifest.
    Shipped,
    /// A URL the user gave.
    Url,
    /// Files the user chose from their computer (never fetched: read from the file, then
    /// kept in this browser's cache).
    Local,
}

/// How a file chosen from the user's computer is named in a source's `url`.
pub const LOCAL_SCHEME: &str = "local:";

/// One file of a model: where it is and, once known, its size and sha256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceFile {
    pub name: String,
    pub url: String,
    pub size: Option<u64>,
    pub sha256: Option<String>,
}

/// A model for one role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSource {
    pub role: Role,
    pub name: String,
    pub origin: Origin,
    pub files: Vec<SourceFile>,
    /// Embedders: how token vectors become a sentence vector, `mean` or `cls`.
    #[serde(default)]
    pub pooling: Option<String>,
}

/// The files of a BERT-family embedder, in the order the loader takes them.
pub const EMBEDDER_FILES: [&str; 3] = ["config.json", "model.safetensors", "tokenizer.json"];

impl ModelSource {
    /// A model this site ships.
    pub fn shipped(entry: &ModelEntry) -> Result<Self, String> {
        let role = match entry.role.as_str() {
            "embedder" => Role::Embedder,
            "llm" => Role::Llm,
            other => {
                return Err(format!(
                    "models/manifest.json: `{}` has role `{other}`",
                    entry.id
                ))
            }
        };
        Ok(ModelSource {
            role,
            name: entry.name.clone(),
            origin: Origin::Shipped,
            files: entry
                .files
                .iter()
                .map(|f| SourceFile {
                    name: f.name.clone(),
                    url: entry.url(f),
                    size: Some(f.size),
                    sha256: Some(f.sha256.clone()),
                })
                .collect(),
            pooling: (role == Role::Embedder).then(|| "mean".to_string()),
        })
    }

    /// A model at a URL the user typed: for the LLM a `.gguf` file, for the embedder
    /// the folder holding its three files (or one of them). Hugging Face page links
    /// (`/blob/`, `/tree/`) are turned into their download links (`/resolve/`).
    pub fn from_url(role: Role, url: &str, pooling: &str) -> Result<Self, String> {
        let url = url.trim();
        if url.is_empty() {
            return Err("type the address of the model".into());
        }
        let lower = url.to_ascii_lowercase();
        // A scheme is a name before the first `:` that comes before any `/`.
        let scheme = match (url.find(':'), url.find('/')) {
            (Some(colon), Some(slash)) if colon < slash => Some(&lower[..colon]),
            (Some(colon), None) => Some(&lower[..colon]),
            _ => None,
        };
        match scheme {
            Some("https") | Some("http") if lower.contains("://") => {}
            // A path on this site: "models/other/x.gguf", "/extra/x.gguf".
            None if !url.starts_with("//") => {}
            _ => {
                return Err(
                    "only https:// (or http://) addresses and paths on this site can be fetched"
                        .into(),
                )
            }
        }
        if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err("the address has spaces in it".into());
        }
        let url = url
            .replace("/blob/", "/resolve/")
            .replace("/tree/", "/resolve/");
        let path = url.split(['?', '#']).next().unwrap_or_default();
        match role {
            Role::Llm => {
                let file = path.rsplit('/').next().unwrap_or_default();
                if !file.to_ascii_lowercase().ends_with(".gguf") {
                    return Err(format!(
                        "`{file}` is not a GGUF file's name; the language model is one .gguf file \
                         (Llama or Qwen2 architecture)"
                    ));
                }
                Ok(ModelSource {
                    role,
                    name: file
                        .trim_end_matches(".gguf")
                        .trim_end_matches(".GGUF")
                        .to_string(),
                    origin: Origin::Url,
                    files: vec![SourceFile {
                        name: file.to_string(),
                        url: url.clone(),
                        size: None,
                        sha256: None,
                    }],
                    pooling: None,
                })
            }
            Role::Embedder => {
                let pooling = match pooling {
                    "mean" | "cls" => pooling.to_string(),
                    other => return Err(format!("pooling `{other}` is not `mean` or `cls`")),
                };
                let (base, last) = path.rsplit_once('/').unwrap_or(("", path));
                let base = match EMBEDDER_FILES.contains(&last) || last.is_empty() {
                    true => base.to_string(),
                    false => path.trim_end_matches('/').to_string(),
                };
                let name = base
                    .trim_end_matches("/resolve/main")
                    .rsplit('/')
                    .find(|s| !s.is_empty() && !s.contains(':'))
                    .unwrap_or("embedder")
                    .to_string();
                let prefix = match base.is_empty() {
                    true => String::new(),
                    false => format!("{base}/"),
                };
                Ok(ModelSource {
                    role,
                    name,
                    origin: Origin::Url,
                    files: EMBEDDER_FILES
                        .iter()
                        .map(|f| SourceFile {
                            name: f.to_string(),
                            url: format!("{prefix}{f}"),
                            size: None,
                            sha256: None,
                        })
                        .collect(),
                    pooling: Some(pooling),
                })
            }
        }
    }

    /// A model from files the user chose (name and size of each): for the LLM one
    /// `.gguf`, for the embedder `config.json`, `model.safetensors` and `tokenizer.json`.
    pub fn from_files(role: Role, files: &[(String, u64)], pooling: &str) -> Result<Self, String> {
        let source = |name: &str, size: u64| SourceFile {
            name: name.to_string(),
            url: format!("{LOCAL_SCHEME}{name}"),
            size: Some(size),
            sha256: None,
        };
        match role {
            Role::Llm => {
                let ggufs: Vec<&(String, u64)> = files
                    .iter()
                    .filter(|(n, _)| n.to_ascii_lowercase().ends_with(".gguf"))
                    .collect();
                let [(name, size)] = ggufs.as_slice() else {
                    return Err(format!(
                        "choose one .gguf file for the language model ({} chosen)",
                        ggufs.len()
                    ));
                };
                Ok(ModelSource {
                    role,
                    name: name[..name.len() - 5].to_string(),
                    origin: Origin::Local,
                    files: vec![source(name, *size)],
                    pooling: None,
                })
            }
            Role::Embedder => {
                let pooling = match pooling {
                    "mean" | "cls" => pooling.to_string(),
                    other => return Err(format!("pooling `{other}` is not `mean` or `cls`")),
                };
                let mut chosen = Vec::new();
                for want in EMBEDDER_FILES {
                    let size = files
                        .iter()
                        .find(|(n, _)| n == want)
                        .map(|(_, s)| *s)
                        .ok_or_else(|| {
                            format!(
                                "choose the embedder's three files together: {} is missing",
                                want
                            )
                        })?;
                    chosen.push(source(want, size));
                }
                Ok(ModelSource {
                    role,
                    name: "embedder from this computer".into(),
                    origin: Origin::Local,
                    files: chosen,
                    pooling: Some(pooling),
                })
            }
        }
    }

    /// Whether every file's size and sha256 are known (shipped, or downloaded once).
    pub fn verified(&self) -> bool {
        self.files
            .iter()
            .all(|f| f.size.is_some() && f.sha256.is_some())
    }

    /// Bytes of all files, when every size is known.
    pub fn size(&self) -> Option<u64> {
        self.files.iter().map(|f| f.size).sum()
    }

    pub fn file(&self, name: &str) -> Option<&SourceFile> {
        self.files.iter().find(|f| f.name == name)
    }

    /// The file holding the weights (the GGUF, or `model.safetensors`).
    pub fn weights(&self) -> Option<&SourceFile> {
        match self.role {
            Role::Llm => self.files.first(),
            Role::Embedder => self.file("model.safetensors"),
        }
    }

    /// A name that tells this model's outputs apart from another's (keys of cached
    /// embeddings): the shipped model's name, or a name with its weights' sha256.
    pub fn key(&self) -> String {
        match (
            self.origin,
            self.weights().and_then(|w| w.sha256.as_deref()),
        ) {
            (Origin::Url | Origin::Local, Some(sha)) => {
                format!("{}@{}", self.name, &sha[..sha.len().min(12)])
            }
            _ => self.name.clone(),
        }
    }

    /// Whether every file comes from the site at `origin` (`http://host:port`): a query
    /// may fetch those; anything else is fetched only when the user asks for it in the
    /// model manager.
    pub fn same_origin(&self, origin: &str) -> bool {
        self.files.iter().all(|f| {
            !f.url.contains("://")
                || f.url
                    .strip_prefix(origin)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
    }
}

/// What the browser gives a model: the largest GPU buffer (WebGPU only) and the memory
/// a WebAssembly page can address.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    pub placement: Placement,
    /// `min(maxBufferSize, maxStorageBufferBindingSize)` of the WebGPU device.
    pub max_buffer: Option<u64>,
    /// What the device says it has (`navigator.deviceMemory`, in bytes; coarse).
    pub device_memory: Option<u64>,
}

/// A 32-bit WebAssembly page addresses at most 4 GiB; the allocator and the app's own
/// data need some of it.
pub const WASM_MEMORY: u64 = 4 << 30;
const WASM_USABLE: u64 = WASM_MEMORY / 10 * 9;

/// Why a model with `footprint` cannot run within `limits` (empty when it can), and
/// what might go wrong (warnings).
pub fn check_fit(footprint: &Footprint, limits: &Limits) -> (Vec<String>, Vec<String>) {
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    if let (Placement::Gpu, Some(max)) = (limits.placement, limits.max_buffer) {
        if footprint.largest_buffer > max {
            problems.push(format!(
                "its largest weight ({}, {} on the GPU) is over this GPU's limit of {} for one \
                 buffer; open the page with ?backend=cpu to run it on the CPU, or choose a \
                 smaller model",
                footprint.largest_name,
                human_size(footprint.largest_buffer),
                human_size(max)
            ));
        }
    }
    if footprint.host_bytes > WASM_USABLE {
        problems.push(format!(
            "loading it takes about {} of this tab's memory, more than the {} a WebAssembly \
             page can use; choose a smaller or more strongly quantized file",
            human_size(footprint.host_bytes),
            human_size(WASM_USABLE)
        ));
    } else if let Some(memory) = limits.device_memory {
        let needed = footprint.host_bytes
            + match limits.placement {
                Placement::Gpu => footprint.device_bytes,
                Placement::Cpu => 0,
            };
        if needed > memory / 2 {
            warnings.push(format!(
                "it needs about {} while this device reports {} of memory; the tab may run out \
                 of memory",
                human_size(needed),
                human_size(memory)
            ));
        }
    }
    (problems, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gguf_url_becomes_one_file_and_hugging_face_page_links_become_downloads() {
        let m = ModelSource::from_url(
            Role::Llm,
            " https://huggingface.co/Qwen/Qwen2-0.5B-Instruct-GGUF/blob/main/qwen2-0_5b-instruct-q8_0.gguf ",
            "",
        )
        .expect("a GGUF URL");
        assert_eq!(m.name, "qwen2-0_5b-instruct-q8_0");
        assert_eq!(
            m.files[0].url,
            "https://huggingface.co/Qwen/Qwen2-0.5B-Instruct-GGUF/resolve/main/qwen2-0_5b-instruct-q8_0.gguf"
        );
        assert!(!m.verified() && !m.same_origin("http://127.0.0.1:8080") && m.size().is_none());
        let local =
            ModelSource::from_url(Role::Llm, "extra/model.gguf?download=1", "").expect("a path");
        assert!(local.same_origin("http://127.0.0.1:8080"));
        let absolute =
            ModelSource::from_url(Role::Llm, "http://127.0.0.1:8080/x.gguf", "").expect("a URL");
        assert!(absolute.same_origin("http://127.0.0.1:8080"));
        assert!(!absolute.same_origin("http://127.0.0.1:80"));
        assert_eq!(local.files[0].name, "model.gguf");
        for bad in [
            "",
            "//x.org/m.gguf",
            "file:///m.gguf",
            "javascript:alert(1)",
            "data:application/octet-stream,GGUF",
            "https://x.org/model.bin",
            "https://x.org/a b.gguf",
        ] {
            assert!(ModelSource::from_url(Role::Llm, bad, "").is_err(), "{bad}");
        }
    }

    #[test]
    fn an_embedder_folder_or_one_of_its_files_names_all_three() {
        for url in [
            "https://huggingface.co/BAAI/bge-small-en-v1.5/tree/main",
            "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/",
            "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/model.safetensors",
        ] {
            let m = ModelSource::from_url(Role::Embedder, url, "cls").expect(url);
            assert_eq!(m.name, "bge-small-en-v1.5", "{url}");
            let urls: Vec<&str> = m.files.iter().map(|f| f.url.as_str()).collect();
            assert_eq!(
                urls,
                [
                    "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/config.json",
                    "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/model.safetensors",
                    "https://huggingface.co/BAAI/bge-small-en-v1.5/resolve/main/tokenizer.json",
                ],
                "{url}"
            );
            assert_eq!(m.pooling.as_deref(), Some("cls"));
        }
        assert!(ModelSource::from_url(Role::Embedder, "models/x/", "max").is_err());
    }

    #[test]
    fn files_from_this_computer_are_one_gguf_or_an_embedders_three_files() {
        let gguf = |n: &str| (n.to_string(), 10u64);
        let m = ModelSource::from_files(Role::Llm, &[gguf("notes.txt"), gguf("Tiny.GGUF")], "")
            .expect("one GGUF");
        assert_eq!(
            (m.name.as_str(), m.files[0].url.as_str(), m.files[0].size),
            ("Tiny", "local:Tiny.GGUF", Some(10))
        );
        assert_eq!(m.origin, Origin::Local);
        assert!(ModelSource::from_files(Role::Llm, &[gguf("a.gguf"), gguf("b.gguf")], "").is_err());
        assert!(ModelSource::from_files(Role::Llm, &[], "").is_err());
        let three = [
            gguf("tokenizer.json"),
            gguf("model.safetensors"),
            gguf("config.json"),
        ];
        let e = ModelSource::from_files(Role::Embedder, &three, "cls").expect("three files");
        let names: Vec<&str> = e.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, EMBEDDER_FILES);
        let err =
            ModelSource::from_files(Role::Embedder, &three[..2], "mean").expect_err("two files");
        assert!(err.contains("config.json is missing"), "{err}");
    }

    #[test]
    fn cached_embeddings_of_a_model_from_a_url_are_keyed_by_its_weights() {
        let mut m = ModelSource::from_url(Role::Embedder, "custom/minilm/", "mean").expect("path");
        assert_eq!(m.key(), "minilm");
        m.files[1].sha256 = Some("53aa51172d142c89d9012cce".into());
        assert_eq!(m.key(), "minilm@53aa51172d14");
    }

    fn footprint(largest: u64, host: u64, device: u64) -> Footprint {
        Footprint {
            parameters: 0,
            device_bytes: device,
            largest_buffer: largest,
            largest_name: "output.weight".into(),
            host_bytes: host,
            bytes_per_token: 0,
        }
    }

    /// Qwen2-0.5B's output projection at 8 bits (151936 × 896 values, a scale and an
    /// offset per 32) is 153 MB: over a 128 MiB binding limit, under a 2 GiB one.
    #[test]
    fn a_buffer_over_the_gpus_limit_or_a_file_over_wasm_memory_is_refused_with_the_numbers() {
        let output = engine::model::footprint::linear_bytes(
            151_936 * 896,
            engine::model::Precision::Q8Block32,
            true,
        );
        assert_eq!(output, 136_134_656 + 4_254_208 * 8);
        let small_gpu = Limits {
            placement: Placement::Gpu,
            max_buffer: Some(128 << 20),
            device_memory: None,
        };
        let (problems, _) = check_fit(&footprint(output, 900_000_000, 600_000_000), &small_gpu);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].contains("170.2 MB on the GPU") && problems[0].contains("134.2 MB"),
            "{}",
            problems[0]
        );
        let big_gpu = Limits {
            max_buffer: Some(2 << 30),
            ..small_gpu
        };
        assert!(
            check_fit(&footprint(output, 900_000_000, 600_000_000), &big_gpu)
                .0
                .is_empty()
        );
        // The CPU has no buffer limit, but the tab's memory is one.
        let cpu = Limits {
            placement: Placement::Cpu,
            max_buffer: Some(1),
            device_memory: Some(8 << 30),
        };
        assert!(check_fit(&footprint(output, 3_000_000_000, 0), &cpu)
            .0
            .is_empty());
        let (problems, _) = check_fit(&footprint(output, 4_000_000_000, 0), &cpu);
        assert!(
            problems[0].contains("4.0 GB of this tab's memory"),
            "{}",
            problems[0]
        );
        let (problems, warnings) = check_fit(
            &footprint(1, 5_000_000_000, 0),
            &Limits {
                device_memory: Some(4 << 30),
                ..cpu
            },
        );
        assert_eq!((problems.len(), warnings.len()), (1, 0));
        let (problems, warnings) = check_fit(
            &footprint(1, 3_000_000_000, 0),
            &Limits {
                device_memory: Some(4 << 30),
                ..cpu
            },
        );
        assert_eq!((problems.len(), warnings.len()), (0, 1));
    }
}
