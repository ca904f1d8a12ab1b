//! Integration tests, built as one binary.

mod cli;
mod golden;
mod props;
mod rating;
mod robust;
mod util;
