//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The binary under test.
pub fn bank() -> Command {
    Command::cargo_bin("sudoku-bank").expect("binary built")
}

/// The words of a command line.
pub fn cmd(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Runs `sudoku-bank ARGS` and returns stdout, asserting exit 0.
pub fn stdout_of(args: &[&str]) -> String {
    let out = bank().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A file of the shared puzzle data sets, found beside the repository.
pub fn shared_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name)
}

/// The puzzles of a data set file: one per line, `#` comments and blank lines skipped.
pub fn puzzles(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (is ../shared beside the repository?)",
            path.display()
        )
    });
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l[..81].to_owned())
        .collect()
}

/// The data rows of a bank, split into fields.
pub fn rows(csv: &str) -> Vec<Vec<String>> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}
