//! Test helpers shared by the test files and benchmarks.
pub mod k_in_a_row;
