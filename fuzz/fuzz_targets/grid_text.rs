//! The grid text parser: any bytes either parse, and then print back to text that parses to
//! the same grid, or give an error; never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bank::grid::{Grid, text_size};
use sudoku_bank::shape::{Four, Nine, Shape, Sixteen, TwentyFive};

fn round_trip<S: Shape>(text: &str) {
    if let Ok(grid) = Grid::<S>::parse(text) {
        let printed = grid.to_string();
        assert_eq!(printed.len(), S::CELLS);
        assert_eq!(Grid::<S>::parse(&printed), Ok(grid));
        let _ = grid.conflict();
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let _ = text_size(text);
    round_trip::<Four>(text);
    round_trip::<Nine>(text);
    round_trip::<Sixteen>(text);
    round_trip::<TwentyFive>(text);
});
