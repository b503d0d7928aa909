//! The model manifest the site serves at `models/manifest.json`: which models ship,
//! where their files come from, how big they are and their sha256.

use serde::Deserialize;

/// `models/manifest.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub schema: u32,
    pub models: Vec<ModelEntry>,
}

/// One shipped model.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelEntry {
    pub id: String,
    pub name: String,
    pub role: String,
    pub architecture: String,
    pub format: String,
    pub files: Vec<ModelFile>,
}

/// One file of a model, served at `models/<model id>/<name>`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ModelFile {
    pub name: String,
    pub size: u64,
    pub sha256: String,
}

impl ModelEntry {
    /// Total download size in bytes.
    pub fn size(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }

    /// The file called `name`, if the model has one.
    pub fn file(&self, name: &str) -> Option<&ModelFile> {
        self.files.iter().find(|f| f.name == name)
    }

    /// The file called `name`, or why the site cannot serve it.
    pub fn require_file(&self, name: &str) -> Result<&ModelFile, String> {
        self.file(name)
            .ok_or_else(|| format!("models/manifest.json lists no {name} for `{}`", self.id))
    }

    /// Where the site serves `file`, relative to the page (or the worker's script).
    pub fn url(&self, file: &ModelFile) -> String {
        format!("models/{}/{}", self.id, file.name)
    }
}

impl Manifest {
    /// The model with id `id`.
    pub fn model(&self, id: &str) -> Option<&ModelEntry> {
        self.models.iter().find(|m| m.id == id)
    }

    /// The model with id `id`, or why the site cannot serve it.
    pub fn require(&self, id: &str) -> Result<&ModelEntry, String> {
        self.model(id)
            .ok_or_else(|| format!("models/manifest.json lists no `{id}`"))
    }
}

/// The manifest schema this build understands.
pub const SCHEMA: u32 = 1;

/// `models/lexicons.json`: the language resources (part-of-speech tagger data, drug
/// lexicon) the readers load, each served at `models/lexicons/<name>` and pinned by
/// size and sha256 like a model's files.
#[derive(Debug, Clone, Deserialize)]
pub struct Lexicons {
    pub schema: u32,
    pub outputs: Vec<ModelFile>,
}

impl Lexicons {
    /// The file called `name`, or why the site cannot serve it.
    pub fn require_file(&self, name: &str) -> Result<&ModelFile, String> {
        self.outputs
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| format!("models/lexicons.json lists no {name}"))
    }

    /// Where the site serves `file`, relative to the page (or the worker's script).
    pub fn url(file: &ModelFile) -> String {
        format!("models/lexicons/{}", file.name)
    }
}

/// Fetches and parses the manifest relative to the page, so the site works under any
/// sub-path.
pub async fn fetch_manifest() -> Result<Manifest, String> {
    let manifest: Manifest = fetch_json("models/manifest.json").await?;
    check_schema("models/manifest.json", manifest.schema)?;
    Ok(manifest)
}

/// Fetches and parses `models/lexicons.json` relative to the page (or the worker).
pub async fn fetch_lexicons() -> Result<Lexicons, String> {
    let lexicons: Lexicons = fetch_json("models/lexicons.json").await?;
    check_schema("models/lexicons.json", lexicons.schema)?;
    Ok(lexicons)
}

async fn fetch_json<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, String> {
    let response = gloo_net::http::Request::get(path)
        .send()
        .await
        .map_err(|e| format!("could not fetch {path}: {e}"))?;
    if !response.ok() {
        return Err(format!("{path}: HTTP {}", response.status()));
    }
    response
        .json()
        .await
        .map_err(|e| format!("{path} is not a valid manifest: {e}"))
}

fn check_schema(path: &str, schema: u32) -> Result<(), String> {
    match schema == SCHEMA {
        true => Ok(()),
        false => Err(format!(
            "{path} has schema {schema}, this build reads schema {SCHEMA}"
        )),
    }
}

/// Bytes as the user reads them: `98.4 MB`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "kB", "MB", "GB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"{"schema": 1, "models": [{"id": "all-minilm-l6-v2",
        "name": "all-MiniLM-L6-v2", "role": "embedder", "architecture": "bert",
        "format": "safetensors F32", "files": [
          {"name": "model.safetensors", "size": 90868376, "sha256": "53aa"},
          {"name": "config.json", "size": 612, "sha256": "953f"}]}]}"#;

    #[test]
    fn files_are_found_by_model_and_name_and_served_under_models() {
        let m: Manifest = serde_json::from_str(MANIFEST).expect("parses");
        let model = m.model("all-minilm-l6-v2").expect("listed");
        assert_eq!(model.size(), 90_868_988);
        let file = model.file("config.json").expect("listed");
        assert_eq!(model.url(file), "models/all-minilm-l6-v2/config.json");
        assert!(m.model("other").is_none() && model.file("vocab.txt").is_none());
    }

    #[test]
    fn the_language_resources_are_pinned_files_served_under_models_lexicons() {
        let pins = include_str!("../../models/lexicons.json");
        let l: Lexicons = serde_json::from_str(pins).expect("parses");
        assert_eq!(l.schema, SCHEMA);
        let drugs = l.require_file("drugs.tsv").expect("listed");
        assert_eq!(drugs.sha256.len(), 64);
        assert_eq!(Lexicons::url(drugs), "models/lexicons/drugs.tsv");
        assert!(l.require_file("tagger.txt").is_ok() && l.require_file("x").is_err());
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(612), "612 B");
        assert_eq!(human_size(90_868_376), "90.9 MB");
        assert_eq!(human_size(1_500_000_000), "1.5 GB");
    }
}
