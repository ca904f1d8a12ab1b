//! The progress bar: on stderr, and only when stderr is a terminal and `--quiet` is off, so
//! piped and logged runs stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Rows written so far, with rate and ETA.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar towards `total` rows; drawn only if `visible`.
    pub fn new(total: u64, visible: bool) -> Self {
        let bar = if visible {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} puzzles {per_sec} ETA {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar }
    }

    /// A bar that never draws.
    pub fn hidden() -> Self {
        Progress {
            bar: ProgressBar::hidden(),
        }
    }

    /// Moves the bar to `rows`.
    pub fn set(&self, rows: u64) {
        self.bar.set_position(rows);
    }

    /// Clears the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
