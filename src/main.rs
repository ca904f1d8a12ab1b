//! `sudoku-bank`: parse the command line, run one command, exit with its code.

use std::process::ExitCode;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Parser;
use sudoku_bank::cli::{Cli, Command};
use sudoku_bank::commands::{self, Exit};

/// Set by Ctrl-C (or SIGTERM): workers stop and the writer flushes what was finished.
static STOP: AtomicBool = AtomicBool::new(false);
/// When the first signal came.
static FIRST_SIGNAL: OnceLock<Instant> = OnceLock::new();
/// A second signal this long after the first ends the process at once. One sooner is taken
/// as the same request: `timeout` and `kill` on a process group deliver a signal twice.
const FORCE_AFTER: Duration = Duration::from_secs(1);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(exit) => exit.into(),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            sudoku_bank::message!("sudoku-bank: {err:#}");
            Exit::Error.into()
        }
    }
}

fn run(cli: Cli) -> Result<Exit> {
    match cli.command {
        Command::Generate(args) => {
            let config = args.into_config(command_line())?;
            ctrlc::set_handler(|| {
                let first = *FIRST_SIGNAL.get_or_init(Instant::now);
                if STOP.swap(true, Ordering::Relaxed) && first.elapsed() >= FORCE_AFTER {
                    // A second Ctrl-C: stop at once. Nothing is published, so the bank
                    // under the requested name is the previous one, or none.
                    std::process::exit(130);
                }
            })?;
            commands::generate(&config, &STOP)
        }
        Command::Bench(args) => commands::bench(&args.into_config().map_err(anyhow::Error::msg)?),
        Command::Merge(args) => commands::merge(&args.into_config(command_line())?),
        Command::Reproduce(args) => {
            let (seed, index) = (args.seed, args.index);
            let (generation, dedup) = args.generation()?;
            commands::reproduce(generation, dedup, seed, index)
        }
        Command::Verify(args) => commands::verify(&args.file, args.provenance, args.quiet),
        Command::Solve(args) => commands::solve(args.file.as_deref(), &args.input()),
        Command::Rate(args) => commands::rate(
            args.puzzles.file.as_deref(),
            &args.puzzles.input(),
            args.threads(),
        ),
    }
}

/// The command line, for the manifest: an argument that is not UTF-8 (a file name can be
/// any bytes but `/` and NUL) is written with U+FFFD where its bytes are not text.
fn command_line() -> Vec<String> {
    std::env::args_os()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect()
}

/// True when the error comes from writing to a closed pipe: the reader has all it wants.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let io = cause.downcast_ref::<std::io::Error>().or_else(|| {
            cause
                .downcast_ref::<csv::Error>()
                .and_then(|e| match e.kind() {
                    csv::ErrorKind::Io(io) => Some(io),
                    _ => None,
                })
        });
        io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
