//! The bank reader and `verify`'s row checks: any bytes are read as a bank, every row
//! checked, with errors or bad rows but never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bank::bank::BankReader;
use sudoku_bank::commands::check_bank;
use sudoku_bank::input::LineLimit;
use sudoku_bank::manifest::RowsDedup;

fuzz_target!(|bytes: &[u8]| {
    let Ok(reader) = BankReader::new("fuzz", LineLimit::new(bytes)) else {
        return;
    };
    let mut report = Vec::new();
    if let Ok((rows, bad)) = check_bank(reader, None, &RowsDedup::Unknown, &mut report) {
        assert!(bad <= rows);
        assert_eq!(report.iter().filter(|&&b| b == b'\n').count() as u64, bad);
    }
});
