//! `gatepath`: the engine on the command line.
//!
//! - `gatepath gate-bench`: times gating and breadth-first walks on a synthetic graph
//!   (default 1M edges) and prints the numbers.

mod gate_bench;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "gatepath",
    version,
    about = "gatepath's engine on the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Time gating and breadth-first walks over a synthetic condition-aware graph.
    GateBench(gate_bench::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::GateBench(args) => gate_bench::run(&args),
    };
    if let Err(message) = result {
        eprintln!("gatepath: {message}");
        std::process::exit(1);
    }
}
