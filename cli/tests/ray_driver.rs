//! The Ray driver's tests (`distributed/tests`, Python): an SPRT and a sharded self-play on a
//! real local Ray cluster with this build's `qi`. They need Python with `ray` and `pytest`
//! (`pip install ray pytest`); where those are missing this test says so (`ray driver tests NOT
//! RUN`) and passes, unless `QI_REQUIRE_RAY=1` (set by `.ci/run`, which installs them).

use std::path::Path;
use std::process::Command;

/// Makes a missing Python `ray` a failure instead of a skipped test.
const REQUIRE_RAY: &str = "QI_REQUIRE_RAY";

#[test]
fn the_ray_driver_tests_pass_on_a_local_ray_cluster() {
    let has_ray = Command::new("python3")
        .args(["-c", "import ray, pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_ray {
        assert!(
            std::env::var(REQUIRE_RAY).as_deref() != Ok("1"),
            "{REQUIRE_RAY}=1 but python3 cannot import ray and pytest (pip install ray pytest)"
        );
        eprintln!(
            "ray driver tests NOT RUN: python3 cannot import ray and pytest \
             (pip install ray pytest, then run cargo test -p cli --test ray_driver)"
        );
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../distributed");
    let out = Command::new("python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
        .current_dir(&dir)
        .env("QI_BIN", env!("CARGO_BIN_EXE_qi"))
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "pytest failed:\n{text}");
    // Every test ran (none skipped).
    assert!(text.contains("3 passed"), "{text}");
}
