//! The ConnectMore engine protocol on stdin/stdout (what `qi connect6-engine` runs).
fn main() -> std::io::Result<()> {
    connect6::connectmore::run(std::io::stdin().lock(), std::io::stdout().lock())
}
