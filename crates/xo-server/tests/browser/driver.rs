//! The WebDriver harness: Debian's chromium and chromedriver (or others by `XO_CHROMIUM` and
//! `XO_CHROMEDRIVER`), the loud skip when they are missing, chromedriver started on a free port,
//! a headless session opened through it, and the folder the screenshots go to.

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Debian's browser and driver; `XO_CHROMIUM` and `XO_CHROMEDRIVER` name others.
fn chromium() -> PathBuf {
    std::env::var_os("XO_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}
fn chromedriver() -> PathBuf {
    std::env::var_os("XO_CHROMEDRIVER")
        .map_or_else(|| PathBuf::from("/usr/bin/chromedriver"), PathBuf::from)
}

/// Whether the browser tests must run (else they skip when chromium is missing).
pub fn browser_missing() -> bool {
    let missing: Vec<String> = [chromium(), chromedriver()]
        .into_iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    if missing.is_empty() {
        return false;
    }
    let message = format!(
        "{} missing: install chromium and chromium-driver (.ci/run does)",
        missing.join(" and ")
    );
    if std::env::var_os("XO_REQUIRE_BROWSER").is_some() {
        panic!("XO_REQUIRE_BROWSER is set but {message}");
    }
    // Straight to the process's standard error: the test harness does not capture it.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "\n*** browser test skipped: {message} ***\n");
    true
}

/// chromedriver, killed and its profile folder removed when dropped (also when a check fails).
pub struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn start_driver() -> Driver {
    let port = free_port();
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let profile = std::env::temp_dir().join(format!("xo-browser-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&profile).unwrap();
    let child = Command::new(chromedriver())
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let driver = Driver { child, port, profile };
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on port {port} within 20 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    driver
}

pub async fn connect(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": chromium(),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage",
                format!("--user-data-dir={}", driver.profile.display()),
                "--window-size=1100,1000",
            ],
        }),
    );
    // The browser's console, read by [`console_log`].
    caps.insert("goog:loggingPrefs".to_string(), json!({"browser": "ALL"}));
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("open a chromium session through chromedriver")
}

pub fn artifacts() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
    };
    target.join("xo-artifacts")
}

/// chromedriver's log of the browser's console (`POST /session/{id}/se/log`, type `browser`).
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.to_string()))
    }
}

/// The entries of the browser's console since the last call (each `{level, message, ...}`):
/// what the page logged, its uncaught errors, and the failed requests Chromium logs as errors.
pub async fn console_log(c: &Client) -> Vec<serde_json::Value> {
    let log = c.issue_cmd(BrowserLog).await.expect("read the browser's log");
    log.as_array().unwrap_or_else(|| panic!("the browser's log: {log}")).clone()
}
