//! The whole pipeline (fill, dig, dedup, CSV) into a sink, at 1 and 2 threads; and 9×9
//! batches of a difficulty band beside unrated ones at the same holes, on one thread, for
//! what a band costs (as `scripts/band-cost.sh` measures it with `sudoku-bank bench`).

use std::io;
use std::sync::atomic::AtomicBool;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku_bank::bank::BankWriter;
use sudoku_bank::config::{Dedup, Generation, Job};
use sudoku_bank::pipeline;
use sudoku_bank::progress::Progress;
use sudoku_bank::rating::{Band, Level};
use sudoku_bank::{Holes, Size};

/// Runs a batch of `job` into a sink.
fn run(job: &Job) {
    let mut sink = BankWriter::new(io::sink(), &job.generation, job.dedup).expect("sink");
    pipeline::run(
        job,
        pipeline::Existing::default(),
        &mut sink,
        &AtomicBool::new(false),
        &Progress::hidden(),
    )
    .expect("sink never fails");
}

/// A one-seed job of `count` puzzles of `size` dug to `holes`, in `band` if one is given.
fn job(size: Size, holes: usize, band: Option<Band>, count: u64, threads: usize) -> Job {
    let generation = Generation::new(size, Some(Holes::Exact(holes)))
        .expect("valid target")
        .with_difficulty(band)
        .expect("a band the puzzles reach");
    Job::new(generation, count, 1, threads, Dedup::Exact, None).expect("valid job")
}

fn batches(c: &mut Criterion) {
    let mut group = c.benchmark_group("pipeline");
    for (size, holes, count) in [
        (Size::Nine, 0, 50_000),
        (Size::Nine, 55, 2000),
        (Size::Sixteen, 0, 2000),
        (Size::Sixteen, 150, 40),
    ] {
        group.throughput(Throughput::Elements(count));
        for threads in [1, 2] {
            let job = job(size, holes, None, count, threads);
            let id = BenchmarkId::new(
                format!("{size}x{size}_{holes}_holes"),
                format!("{threads}_threads"),
            );
            group.bench_function(id, |b| b.iter(|| run(&job)));
        }
    }
    group.finish();
}

/// Banded batches and unrated ones at the same holes: the ratio of their times is what the
/// band costs.
fn bands(c: &mut Criterion) {
    let mut group = c.benchmark_group("band");
    for (level, holes, count) in [
        (Level::Easy, 40, 3000),
        (Level::Medium, 50, 3000),
        (Level::Hard, 55, 300),
    ] {
        group.throughput(Throughput::Elements(count));
        for band in [Some(Band::of_level(level)), None] {
            let job = job(Size::Nine, holes, band, count, 1);
            let rated = if band.is_some() { "rated" } else { "unrated" };
            let id = BenchmarkId::new(format!("{level}_{holes}_holes"), rated);
            group.bench_function(id, |b| b.iter(|| run(&job)));
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = batches, bands
}
criterion_main!(benches);
