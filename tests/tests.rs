//! Integration tests, built as one binary.

mod canon;
mod cli;
mod golden;
mod props;
mod rating;
mod robust;
mod util;
