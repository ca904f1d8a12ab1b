//! Integration tests, built as one binary.

mod cli;
mod golden;
mod props;
mod robust;
mod util;
