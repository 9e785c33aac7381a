//! End-to-end tests of `xo grundy`.

use std::process::{Command, Output};

fn xo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xo")).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn kayles_text_reports_the_proven_period() {
    let o = xo(&["grundy", "kayles", "--upto", "200"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("nim-sequence of octal:0.77 for heaps 0..=200"), "{text}");
    assert!(text.contains("     0:  0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2\n"), "{text}");
    assert!(text.contains("period 12, preperiod 71"), "{text}");
    assert!(text.contains("largest value 8 first at n = 27"), "{text}");
}

#[test]
fn json_has_values_period_and_preperiod() {
    let o = xo(&["grundy", "octal:0.07", "--upto", "300", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["period"], 34);
    assert_eq!(v["preperiod"], 53);
    assert_eq!(v["values"].as_array().unwrap().len(), 301);
    assert_eq!(v["values"][52], 2);
    let o = xo(&["grundy", "treblecross", "--upto", "15", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["game"], "octal:0.007");
    assert_eq!(v["values"], serde_json::json!([0, 0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4]));
    assert_eq!(v["period"], serde_json::Value::Null);
    assert_eq!(v["preperiod"], serde_json::Value::Null);
}

#[test]
fn bad_input_exits_2_with_one_message() {
    for args in [
        &["grundy", "0.7q", "--upto", "5"][..],
        &["grundy", "kayle", "--upto", "5"],
        &["grundy", "1.7", "--upto", "5"],
        &["grundy", "0.77", "--upto", "1000000000"],
        &["grundy", "0.8", "--upto", "5000"],
    ] {
        let o = xo(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.starts_with("xo: error: ") && err.lines().count() == 1, "{args:?}: {err}");
    }
}

#[test]
fn a_sequence_beyond_the_time_limit_gives_up_with_one_message() {
    // .007 to 10^7 needs minutes; both spellings of the limit stop it within about a second,
    // with exit status 3 and the flag that raises the budget.
    for flag in ["--max-seconds", "--timeout"] {
        let start = std::time::Instant::now();
        let o = xo(&["grundy", "0.007", "--upto", "10000000", flag, "1"]);
        assert_eq!(o.status.code(), Some(3), "{flag}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.starts_with("xo: stopped at the time budget (1 s)"), "{flag}: {err}");
        assert!(err.contains("Grundy values up to heap ") && err.contains("--timeout"), "{err}");
        assert_eq!(err.lines().count(), 1, "{flag}: {err}");
        assert!(start.elapsed().as_secs() < 30, "{flag}: took {:?}", start.elapsed());
    }
}

#[cfg(feature = "plot")]
#[test]
fn plots_svg_and_png() {
    let dir = std::env::temp_dir().join(format!("xo-grundy-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["plot.svg", "plot.png"] {
        let path = dir.join(name);
        let o = xo(&["grundy", "0.007", "--upto", "500", "--plot", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let bytes = std::fs::read(&path).unwrap();
        if name.ends_with(".svg") {
            assert!(String::from_utf8(bytes).unwrap().contains("<svg"));
        } else {
            assert_eq!(&bytes[1..4], b"PNG");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 46: the plot went to plotters' own file writer, which wrote through a symbolic link
/// (overwriting its target), waited forever on a FIFO (past `--timeout`), wrote to `/dev/null`
/// and reported a missing folder as "backend error: Drawing backend error: ...". Now the plot is
/// written by the store's atomic writer, and a path it cannot write is refused before any work.
#[cfg(feature = "plot")]
#[test]
fn a_plot_is_written_only_where_a_regular_file_may_be() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // Links, FIFOs and devices are planted on Unix only.
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut refused = vec![at("no/such/folder.svg")];
    #[cfg(unix)]
    {
        std::fs::write(dir.path().join("target.txt"), "keep").unwrap();
        std::os::unix::fs::symlink(dir.path().join("target.txt"), dir.path().join("link.svg"))
            .unwrap();
        assert!(Command::new("mkfifo").arg(at("fifo.svg")).status().unwrap().success());
        refused.extend([at("link.svg"), at("fifo.svg"), "/dev/null".to_string()]);
    }
    for path in &refused {
        // A node budget of 1 would stop any work (exit 3): the refusal comes first (exit 2).
        let o = xo(&["grundy", "kayles", "--upto", "100000", "--max-nodes", "1", "--plot", path]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{path}: {err}");
        assert!(err.starts_with(&format!("xo: error: cannot write the plot to {path}: ")), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("backend"), "{err}");
    }
    #[cfg(unix)]
    assert_eq!(std::fs::read_to_string(dir.path().join("target.txt")).unwrap(), "keep");
    // A plot that can be written is, and nothing else is left beside it.
    let o = xo(&["grundy", "kayles", "--upto", "100", "--plot", &at("ok.svg")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(dir.path().join("ok.svg")).unwrap().starts_with("<svg"));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("ok.svg"))
        .collect();
    assert_eq!(names, ["ok.svg"]);
    // A reader that closes the pipe at once still gets the plot written (exit 0, quietly).
    let mut child = Command::new(env!("CARGO_BIN_EXE_xo"))
        .args(["grundy", "kayles", "--upto", "100000", "--plot", &at("piped.svg")])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert!(child.wait().unwrap().success());
    assert!(std::fs::read_to_string(dir.path().join("piped.svg")).unwrap().starts_with("<svg"));
}

/// Built without the `plot` feature (`cargo test -p xo-cli --no-default-features --test all
/// grundy::`): `--plot` still parses, and is refused with one line naming the feature, exit 2,
/// before any work (a node budget of 1 would stop the work with exit 3), and nothing is written.
#[cfg(not(feature = "plot"))]
#[test]
fn without_the_plot_feature_a_plot_is_refused_by_name() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let path = dir.path().join("p.svg");
    let o = xo(&[
        "grundy",
        "kayles",
        "--upto",
        "10",
        "--max-nodes",
        "1",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "xo: error: this xo was built without the `plot` feature; rebuild with --features plot\n"
    );
    assert!(!path.exists());
    // The flag stays in the help.
    assert!(stdout(&xo(&["grundy", "--help"])).contains("--plot"));
}

/// Found by the request fuzz target: .78's splits cost far more than the engine's work estimate,
/// so a short sequence never read the clock or ticked the meter (2,808 heaps ran past a 2 s
/// budget in the fuzzer's build). The node budget now stops it (heaps are ticked every 64).
#[test]
fn a_node_budget_stops_a_sequence_whose_work_is_underestimated() {
    let out = xo(&["grundy", "octal:0.78", "--upto", "2808", "--max-nodes", "1000"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("--max-nodes"), "{err}");
}

/// `--save` writes the values as a stored nim-sequence that reads back as the JSON's values,
/// and refuses a path it cannot write before any work (exit 2), as `--plot` does.
#[test]
fn saved_values_read_back_and_bad_paths_are_refused_first() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let path = dir.path().join("dawson.seq");
    let p = path.to_str().unwrap();
    let o = xo(&["grundy", "dawson-kayles", "--upto", "3000", "--json", "--save", p]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let stored = xo_store::sequence::read(&path).unwrap();
    assert_eq!(stored.game().to_string(), "0.07");
    let want: Vec<u32> =
        v["values"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect();
    assert_eq!(stored.values(), &want[..]);
    let missing = dir.path().join("no/such/folder.seq");
    let m = missing.to_str().unwrap();
    let o = xo(&["grundy", "kayles", "--upto", "100000", "--max-nodes", "1", "--save", m]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.starts_with(&format!("xo: error: cannot save the values to {m}: ")), "{err}");
}
