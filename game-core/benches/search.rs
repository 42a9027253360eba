//! Search benchmarks (filled with the search).
fn main() {}
