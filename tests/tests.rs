//! Integration tests, built as one binary.

mod canon;
mod cli;
mod golden;
mod merge;
mod props;
mod rating;
mod robust;
mod util;
