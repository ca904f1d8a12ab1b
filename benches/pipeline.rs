//! The whole pipeline (fill, dig, dedup, CSV) into a sink, at 1 and 2 threads.

use std::io;
use std::sync::atomic::AtomicBool;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku_bank::bank::BankWriter;
use sudoku_bank::config::{Dedup, Generation, Job};
use sudoku_bank::pipeline;
use sudoku_bank::progress::Progress;
use sudoku_bank::{Holes, Size};

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
            let generation =
                Generation::new(size, Some(Holes::Exact(holes))).expect("valid target");
            let job =
                Job::new(generation, count, 1, threads, Dedup::Exact, None).expect("valid job");
            let id = BenchmarkId::new(
                format!("{size}x{size}_{holes}_holes"),
                format!("{threads}_threads"),
            );
            group.bench_function(id, |b| {
                b.iter(|| {
                    let mut sink =
                        BankWriter::new(io::sink(), &job.generation, job.dedup).expect("sink");
                    pipeline::run(
                        &job,
                        pipeline::Existing::default(),
                        &mut sink,
                        &AtomicBool::new(false),
                        &Progress::hidden(),
                    )
                    .expect("sink never fails")
                })
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = batches
}
criterion_main!(benches);
