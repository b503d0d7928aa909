//! The worker's cache in IndexedDB, so a second visit neither downloads the models nor
//! reads the documents again: model files by sha256 (verified on every read — a damaged
//! entry is deleted and fetched again), sentence embeddings by embedder and text hash,
//! and extractions by document-set hash.
//!
//! The cache is an optimisation, never a requirement: when IndexedDB cannot be opened
//! (some private modes) or a write fails (the storage quota is exhausted), the cache
//! turns itself off for writes, keeps the reason for the page, and the app works on
//! without it.

use std::cell::RefCell;
use std::rc::Rc;

use indexed_db_futures::database::Database;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::TransactionMode;
use indexed_db_futures::KeyRange;
use js_sys::{Promise, Reflect, Uint8Array};
use sha2::{Digest, Sha256};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use gatepath_app::protocol::{CacheStore, CacheSummary};

/// The database's name.
pub const DATABASE: &str = "gatepath";
/// The schema version. Version 2 added [`SETTINGS`]; an upgrade from 1 keeps what is
/// cached. Any other upgrade drops the old stores and starts empty: nothing in the
/// cache is lost that a fetch or a model run cannot bring back.
pub const SCHEMA: u32 = 2;
/// Model files: key = the file's sha256 (hex), value = `{name, url, size, bytes}`.
pub const FILES: &str = "files";
/// Sentence embeddings: key = `<embedder>:<sha256 of the text>`, value = Float32Array.
pub const EMBEDDINGS: &str = "embeddings";
/// Extractions: key = document-set hash, value = the extraction as JSON text.
pub const EXTRACTIONS: &str = "extractions";
/// The user's choices: key = a role (`embedder`, `llm`), value = the chosen model's
/// source as JSON text. Kept by Clear: a choice is not a cache.
pub const SETTINGS: &str = "settings";
/// The stores that cache (what Clear empties and the storage panel counts).
const STORES: [&str; 3] = [FILES, EMBEDDINGS, EXTRACTIONS];

thread_local! {
    /// `None` until the first use; then the open database or why there is none.
    static DB: RefCell<Option<Result<Rc<Database>, String>>> = const { RefCell::new(None) };
    /// Why writes are off, once one failed.
    static WRITES_OFF: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Why the cache is not fully working, for the page: it could not be opened, or a write
/// failed and writes are off.
pub fn note() -> Option<String> {
    let open = DB.with(|d| match &*d.borrow() {
        Some(Err(reason)) => Some(reason.clone()),
        _ => None,
    });
    open.or_else(|| WRITES_OFF.with(|w| w.borrow().clone()))
}

/// The value under `key` in `store`, if the cache has one.
pub async fn get(store: &str, key: &str) -> Option<JsValue> {
    get_many(store, &[key.to_string()]).await.pop().flatten()
}

/// The values under `keys` in `store`, in one transaction (`None` where there is none).
pub async fn get_many(store: &str, keys: &[String]) -> Vec<Option<JsValue>> {
    let Some(db) = database().await else {
        return vec![None; keys.len()];
    };
    let read = async {
        let tx = db.transaction(store).build()?;
        let s = tx.object_store(store)?;
        // Every request goes out before the first is awaited: one round of the event
        // loop for the whole batch, and the transaction stays active throughout.
        let requests = keys
            .iter()
            .map(|k| {
                s.get::<JsValue, String, _>(KeyRange::Only(k.clone()))
                    .primitive()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut values = Vec::with_capacity(keys.len());
        for r in requests {
            values.push(r.await?);
        }
        Ok::<_, indexed_db_futures::error::Error>(values)
    };
    read.await.unwrap_or_else(|_| vec![None; keys.len()])
}

/// Stores `entries` in `store` in one transaction. A failure (the quota, most often)
/// turns writes off and is kept for [`note`]; the caller carries on either way.
pub async fn put_many(store: &str, entries: Vec<(String, JsValue)>) {
    if entries.is_empty() || WRITES_OFF.with(|w| w.borrow().is_some()) {
        return;
    }
    let Some(db) = database().await else { return };
    let write = async {
        let tx = db
            .transaction(store)
            .with_mode(TransactionMode::Readwrite)
            .build()?;
        let s = tx.object_store(store)?;
        for (key, value) in entries {
            s.put(value).with_key(key).primitive()?;
        }
        tx.commit().await
    };
    if let Err(e) = write.await {
        let reason = describe_write_error(&error_text(e));
        WRITES_OFF.with(|w| *w.borrow_mut() = Some(reason));
    }
}

/// Deletes `key` from `store` (a damaged entry).
pub async fn delete(store: &str, key: &str) {
    let Some(db) = database().await else { return };
    let delete = async {
        let tx = db
            .transaction(store)
            .with_mode(TransactionMode::Readwrite)
            .build()?;
        tx.object_store(store)?
            .delete::<String, _>(KeyRange::Only(key.to_string()))
            .primitive()?;
        tx.commit().await
    };
    let _ = delete.await;
}

/// What each store holds, and what the browser says about storage use.
pub async fn summary() -> CacheSummary {
    let mut stores = Vec::new();
    if let Some(db) = database().await {
        for name in STORES {
            let counted = async {
                let tx = db.transaction(name).build()?;
                let s = tx.object_store(name)?;
                let n = s.count().await?;
                Ok::<_, indexed_db_futures::error::Error>(n)
            };
            let entries = counted.await.unwrap_or(0);
            let files = match name {
                FILES => file_list(&db).await,
                _ => Vec::new(),
            };
            stores.push(CacheStore {
                name: name.to_string(),
                entries: entries as u64,
                files,
            });
        }
    }
    let (usage, quota) = estimate().await.unwrap_or((0.0, 0.0));
    CacheSummary {
        stores,
        usage_bytes: usage,
        quota_bytes: quota,
        note: note(),
    }
}

/// Empties every store. Writes are allowed again: the user freed space.
pub async fn clear() -> Result<(), String> {
    let db = database().await.ok_or_else(|| {
        note().unwrap_or_else(|| "the browser's storage could not be opened".into())
    })?;
    let cleared = async {
        let tx = db
            .transaction(STORES)
            .with_mode(TransactionMode::Readwrite)
            .build()?;
        for name in STORES {
            tx.object_store(name)?.clear()?;
        }
        tx.commit().await
    };
    cleared
        .await
        .map_err(|e| format!("could not clear the cache: {}", error_text(e)))?;
    WRITES_OFF.with(|w| *w.borrow_mut() = None);
    Ok(())
}

/// sha256 of `text` as 64 hex digits (keys for embeddings and document sets).
pub fn text_hash(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// sha256 of `bytes` computed by the browser (SubtleCrypto: native speed for a model
/// file of a hundred megabytes), as 64 hex digits.
pub async fn file_hash(bytes: &Uint8Array) -> Result<String, String> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let subtle = scope
        .crypto()
        .map_err(|_| "this browser has no Web Crypto to verify model files".to_string())?
        .subtle();
    let promise = subtle
        .digest_with_str_and_js_u8_array("SHA-256", bytes)
        .map_err(|e| format!("could not hash a model file: {e:?}"))?;
    let digest = JsFuture::from(promise)
        .await
        .map_err(|e| format!("could not hash a model file: {e:?}"))?;
    Ok(hex(&Uint8Array::new(&digest).to_vec()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An IndexedDB error as `Name: message` (a DOM exception's name says what happened:
/// `QuotaExceededError`, `UnknownError` …).
fn error_text(e: indexed_db_futures::error::Error) -> String {
    match e {
        indexed_db_futures::error::Error::DomException(d) => {
            let d: web_sys::DomException = d.into();
            format!("{}: {}", d.name(), d.message())
        }
        other => other.to_string(),
    }
}

/// A write error in words: the quota gets its own sentence, since it is the usual one
/// and the user can act on it.
fn describe_write_error(error: &str) -> String {
    if error.contains("Quota") || error.contains("quota") {
        "the browser's storage for this site is full, so nothing more is cached; \
         everything still works, and Clear under \u{201c}Stored in this browser\u{201d} \
         frees space"
            .into()
    } else {
        format!("the cache could not be written ({error}); everything still works without it")
    }
}

/// The open database, opening it on first use.
async fn database() -> Option<Rc<Database>> {
    if let Some(state) = DB.with(|d| d.borrow().clone()) {
        return state.ok();
    }
    let opened = Database::open(DATABASE)
        .with_version(SCHEMA)
        .with_on_upgrade_needed(|event, db| {
            let existing: Vec<String> = db.object_store_names().collect();
            // Version 1 had the three caches: they stay. Otherwise a cache has nothing to
            // migrate: the old stores go, the new ones start empty.
            if event.old_version() != 1.0 {
                for name in &existing {
                    db.delete_object_store(name)?;
                }
            }
            for name in STORES.iter().chain([&SETTINGS]) {
                if event.old_version() != 1.0 || !existing.iter().any(|e| e == name) {
                    db.create_object_store(name).build()?;
                }
            }
            Ok(())
        })
        .await
        .map(Rc::new)
        .map_err(|e| {
            format!(
                "the browser's storage (IndexedDB) could not be opened ({e}); \
                 models are downloaded on every visit"
            )
        });
    if let Err(reason) = &opened {
        web_sys::console::warn_1(&reason.into());
    }
    DB.with(|d| *d.borrow_mut() = Some(opened.clone()));
    opened.ok()
}

/// The cached model files: name, size and key.
async fn file_list(db: &Database) -> Vec<String> {
    let listed = async {
        let tx = db.transaction(FILES).build()?;
        let s = tx.object_store(FILES)?;
        let values: Vec<JsValue> = s
            .get_all::<JsValue>()
            .primitive()?
            .await?
            .collect::<Result<_, _>>()?;
        Ok::<_, indexed_db_futures::error::Error>(values)
    };
    listed
        .await
        .unwrap_or_default()
        .iter()
        .map(|v| {
            let field = |k: &str| Reflect::get(v, &k.into()).ok();
            let name = field("url").and_then(|n| n.as_string()).unwrap_or_default();
            let size = field("size").and_then(|s| s.as_f64()).unwrap_or(0.0);
            format!(
                "{name} ({})",
                gatepath_app::manifest::human_size(size as u64)
            )
        })
        .collect()
}

/// `navigator.storage.estimate()`: bytes used and available to this origin.
async fn estimate() -> Option<(f64, f64)> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let promise: Promise = scope.navigator().storage().estimate().ok()?;
    let estimate = JsFuture::from(promise).await.ok()?;
    let number = |k: &str| Reflect::get(&estimate, &k.into()).ok()?.as_f64();
    Some((number("usage")?, number("quota")?))
}
