//! A UCCI engine on stdin/stdout: `cargo run --release -p xiangqi --example xiangqi_ucci`.
fn main() -> std::io::Result<()> {
    xiangqi::ucci::run(std::io::stdin().lock(), std::io::stdout())
}
