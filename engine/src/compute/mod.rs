//! Compute devices: which backend the models run on, and how it was obtained.
//!
//! burn 0.22 picks the backend at run time through its `Device`, so model code is written
//! once. A device can only be initialised once per process (or browser worker), so the
//! caller creates one [`Compute`] at start-up and shares it.

pub mod check;

use std::fmt;

use burn::tensor::Device;

/// The backend a [`Compute`] runs on, as shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// burn's WebGPU runtime (wgpu on the browser's `navigator.gpu`).
    WebGpu {
        /// What the adapter says about itself, e.g. `google swiftshader`; may be empty
        /// because browsers are free to withhold adapter details.
        adapter: String,
    },
    /// burn-flex, burn's pure-Rust CPU backend; works everywhere, including wasm32.
    Cpu,
}

impl Backend {
    /// Short, stable name for logs, test hooks and the UI (`"webgpu"` or `"cpu"`).
    pub fn id(&self) -> &'static str {
        match self {
            Backend::WebGpu { .. } => "webgpu",
            Backend::Cpu => "cpu",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Backend::WebGpu { adapter } if adapter.trim().is_empty() => write!(f, "WebGPU"),
            Backend::WebGpu { adapter } => write!(f, "WebGPU ({})", adapter.trim()),
            Backend::Cpu => write!(f, "CPU (burn-flex)"),
        }
    }
}

/// A burn device together with the [`Backend`] it belongs to.
#[derive(Clone)]
pub struct Compute {
    device: Device,
    backend: Backend,
}

impl Compute {
    /// The CPU backend. Always available; this is also the reference every other
    /// backend is checked against.
    pub fn cpu() -> Self {
        Compute {
            device: Device::flex(),
            backend: Backend::Cpu,
        }
    }

    /// Acquires a WebGPU device. In a browser this must be awaited on the thread (page
    /// or worker) that will run the models; it fails with [`ComputeError::WebGpu`] when
    /// the browser exposes no usable adapter, and the caller falls back to [`Compute::cpu`].
    #[cfg(feature = "webgpu")]
    pub async fn webgpu() -> Result<Self, ComputeError> {
        let (device, setup) = Device::wgpu_options()
            .init_with_setup_async()
            .await
            .map_err(|e| ComputeError::WebGpu(e.to_string()))?;
        let info = setup.adapter.get_info();
        let adapter = [
            info.name.as_str(),
            info.driver.as_str(),
            info.driver_info.as_str(),
        ]
        .iter()
        .filter(|s| !s.trim().is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
        Ok(Compute {
            device,
            backend: Backend::WebGpu { adapter },
        })
    }

    /// The burn device to create tensors and modules on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Which backend this is.
    pub fn backend(&self) -> &Backend {
        &self.backend
    }
}

impl fmt::Debug for Compute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compute")
            .field("backend", &self.backend)
            .finish()
    }
}

/// Why a computation could not be set up or run.
#[derive(Debug, thiserror::Error)]
pub enum ComputeError {
    /// No WebGPU device could be acquired (no adapter, blocked by the browser, limits
    /// too small, …). The message is the runtime's own.
    #[error("WebGPU is unavailable: {0}")]
    WebGpu(String),
    /// The backend failed while running or reading back a computation (for example a
    /// lost GPU device).
    #[error("computation failed on {backend}: {message}")]
    Execution {
        /// Where it failed.
        backend: Backend,
        /// The runtime's message.
        message: String,
    },
    /// The backend returned something other than what was asked for.
    #[error("unexpected result on {backend}: {message}")]
    Result {
        /// Where it happened.
        backend: Backend,
        /// What was wrong.
        message: String,
    },
}
