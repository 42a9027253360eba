//! A UCI engine on stdin/stdout: `cargo run --release -p xiangqi --example xiangqi_uci`.
fn main() -> std::io::Result<()> {
    xiangqi::uci::run(std::io::stdin().lock(), std::io::stdout())
}
