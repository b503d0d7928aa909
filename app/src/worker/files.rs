//! Model files for the worker: from the cache when it holds them and they still match
//! their sha256; otherwise from the site, streamed so the page can show the bytes as
//! they arrive, checked against the manifest's size and sha256, then cached.

use js_sys::{Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, Response, WorkerGlobalScope};

use gatepath_app::manifest::{human_size, ModelFile};

use crate::store::{self, FILES};

/// A loaded file and where its bytes came from.
pub struct Loaded {
    pub bytes: Vec<u8>,
    pub origin: Origin,
}

/// Where a file's bytes came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The cache, verified.
    Cache,
    /// The site (nothing was cached).
    Network,
    /// The site, because the cached copy failed its sha256 check and was deleted.
    Repaired,
}

/// Loads `file` served at `url`, reporting the bytes read so far through `on_bytes`.
pub async fn load(url: &str, file: &ModelFile, on_bytes: &dyn Fn(u64)) -> Result<Loaded, String> {
    let mut repaired = false;
    if let Some(record) = store::get(FILES, &file.sha256).await {
        match cached_bytes(&record, file).await {
            Some(bytes) => {
                on_bytes(file.size);
                return Ok(Loaded {
                    bytes,
                    origin: Origin::Cache,
                });
            }
            None => {
                store::delete(FILES, &file.sha256).await;
                repaired = true;
            }
        }
    }
    let bytes = download(url, file.size, on_bytes).await?;
    if u64::from(bytes.length()) != file.size {
        return Err(format!(
            "{url}: {} arrived where the manifest says {}; the download was cut short or \
             the file on the site is not the one the manifest describes",
            human_size(bytes.length().into()),
            human_size(file.size)
        ));
    }
    let hash = store::file_hash(&bytes).await?;
    if hash != file.sha256 {
        return Err(format!(
            "{url} does not match the sha256 in models/manifest.json (it has {hash}, the \
             manifest {}): the file on the site is damaged or belongs to another model",
            file.sha256
        ));
    }
    let record = Object::new();
    let set = |k: &str, v: &JsValue| Reflect::set(&record, &k.into(), v).is_ok();
    let complete = set("name", &file.name.as_str().into())
        && set("url", &url.into())
        && set("size", &(file.size as f64).into())
        && set("bytes", &bytes);
    if complete {
        store::put_many(FILES, vec![(file.sha256.clone(), record.into())]).await;
    }
    Ok(Loaded {
        bytes: bytes.to_vec(),
        origin: match repaired {
            true => Origin::Repaired,
            false => Origin::Network,
        },
    })
}

/// The cached record's bytes when they have the right size and sha256.
async fn cached_bytes(record: &JsValue, file: &ModelFile) -> Option<Vec<u8>> {
    let bytes: Uint8Array = Reflect::get(record, &"bytes".into())
        .ok()?
        .dyn_into()
        .ok()?;
    if u64::from(bytes.length()) != file.size {
        return None;
    }
    let hash = store::file_hash(&bytes).await.ok()?;
    (hash == file.sha256).then(|| bytes.to_vec())
}

/// Fetches `url` chunk by chunk into one array (sized from `expected`, grown if the
/// response is longer), calling `on_bytes` with the running total.
async fn download(url: &str, expected: u64, on_bytes: &dyn Fn(u64)) -> Result<Uint8Array, String> {
    let failed = |e: JsValue| format!("could not fetch {url}: {}", js_text(&e));
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let response: Response = JsFuture::from(scope.fetch_with_str(url))
        .await
        .map_err(failed)?
        .dyn_into()
        .map_err(failed)?;
    if !response.ok() {
        return Err(format!("could not fetch {url}: HTTP {}", response.status()));
    }
    let body = response
        .body()
        .ok_or_else(|| format!("could not fetch {url}: the response has no body"))?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut buffer = Uint8Array::new_with_length(u32::try_from(expected).unwrap_or(u32::MAX));
    let mut filled: u32 = 0;
    // Progress every megabyte, not every chunk: each report is a message and a redraw.
    let mut reported: u32 = 0;
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(failed)?;
        let done = Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into())
            .map_err(failed)?
            .dyn_into()
            .map_err(failed)?;
        let end = filled
            .checked_add(value.length())
            .ok_or_else(|| format!("{url} is larger than 4 GB"))?;
        if end > buffer.length() {
            let grown = Uint8Array::new_with_length(end.max(buffer.length().saturating_mul(2)));
            grown.set(&buffer.subarray(0, filled), 0);
            buffer = grown;
        }
        buffer.set(&value, filled);
        filled = end;
        if filled - reported >= 1 << 20 {
            reported = filled;
            on_bytes(u64::from(filled));
        }
    }
    on_bytes(u64::from(filled));
    Ok(buffer.subarray(0, filled))
}

fn js_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            Reflect::get(e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| format!("{e:?}"))
}
