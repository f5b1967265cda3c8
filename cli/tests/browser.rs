//! The page in a real browser: headless Chromium driven through WebDriver
//! (chromedriver) plays a whole game of each game by clicks and keys against
//! the real binary (`boardkit serve --port 0`), reads what the page shows
//! (the result line, the winning line, the feedback pegs, the revealed
//! secret) and saves screenshots (their paths are printed).
//!
//! One browser session for the whole file: the tests run one after the
//! other in it (libtest-mimic, one thread). Without chromedriver they are
//! skipped with a note, except when `CI` is set: then they fail.
//!
//! `BOARDKIT_CHROMEDRIVER` and `BOARDKIT_CHROMIUM` override the paths
//! (default: `chromedriver` and `chromium` on the PATH, or under /usr/bin).

mod serve;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Value, json};
use serve::Server;

/// Every wait on the page ends within this.
const WAIT: Duration = Duration::from_secs(20);
/// How long chromedriver may take to listen.
const DRIVER_START: Duration = Duration::from_secs(20);

fn find_tool(variable: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push("/usr/bin".into());
    dirs.push("/usr/lib/chromium".into());
    names
        .iter()
        .flat_map(|name| dirs.iter().map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// chromedriver, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start(path: &Path) -> Driver {
        // A free port: taken from the system, then handed to chromedriver.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let driver = Driver { child, port };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < DRIVER_START,
                "chromedriver did not listen on {port} within {DRIVER_START:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What every test shares: the runtime, the browser, the server.
struct Shared {
    runtime: tokio::runtime::Runtime,
    client: Client,
    url: String,
    shots: PathBuf,
}

impl Shared {
    /// Runs one test's future to its end (at most two minutes); prints the time.
    fn block(
        &self,
        test: impl std::future::Future<Output = Result<(), Failed>>,
    ) -> Result<(), Failed> {
        let started = Instant::now();
        let result = self.runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(120), test)
                .await
                .unwrap_or_else(|_| Err("the test took more than 120 s".into()))
        });
        println!("    ({:.1} s)", started.elapsed().as_secs_f64());
        result
    }

    /// Runs `script` in the page; its value.
    async fn js(&self, script: &str) -> Result<Value, Failed> {
        self.client
            .execute(script, vec![])
            .await
            .map_err(|e| format!("script {script:?}: {e}").into())
    }

    async fn text(&self, id: &str) -> Result<String, Failed> {
        let value = self
            .js(&format!(
                "return document.getElementById({}).textContent",
                json!(id)
            ))
            .await?;
        Ok(value.as_str().unwrap_or_default().to_owned())
    }

    /// Waits until `script` returns true (bounded by [`WAIT`]).
    async fn until(&self, what: &str, script: &str) -> Result<(), Failed> {
        let started = Instant::now();
        loop {
            if self.js(script).await? == Value::Bool(true) {
                return Ok(());
            }
            if started.elapsed() > WAIT {
                return Err(format!("waited {WAIT:?} for {what} ({script})").into());
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Waits until the status line of `game` contains `needle`; the line.
    async fn status_has(&self, game: &str, needle: &str) -> Result<String, Failed> {
        let waited = self
            .until(
                &format!("{game}'s status to say {needle:?}"),
                &format!(
                    "return document.getElementById('{game}-status').textContent.includes({})",
                    json!(needle)
                ),
            )
            .await;
        let status = self.text(&format!("{game}-status")).await?;
        match waited {
            Ok(()) => Ok(status),
            Err(e) => {
                Err(format!("{} (the status says {status:?})", e.message().unwrap_or("")).into())
            }
        }
    }

    async fn click(&self, css: &str) -> Result<(), Failed> {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("no {css}: {e}"))?
            .click()
            .await
            .map_err(|e| format!("cannot click {css}: {e}").into())
    }

    /// Chooses `value` in the `<select>` `id`.
    async fn choose(&self, id: &str, value: &str) -> Result<(), Failed> {
        self.click(&format!("#{id} option[value=\"{value}\"]"))
            .await
    }

    async fn tab(&self, game: &str) -> Result<(), Failed> {
        self.click(&format!("#tab-{game}")).await?;
        self.until(
            &format!("the {game} tab"),
            &format!("return !document.getElementById('{game}').hidden"),
        )
        .await
    }

    async fn screenshot(&self, name: &str) -> Result<PathBuf, Failed> {
        let png = self
            .client
            .screenshot()
            .await
            .map_err(|e| format!("screenshot: {e}"))?;
        let path = self.shots.join(name);
        std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("    screenshot: {}", path.display());
        Ok(path)
    }
}

async fn velha_two_players_by_clicks(s: &Shared) -> Result<(), Failed> {
    s.tab("velha").await?;
    s.choose("velha-opponent", "").await?;
    s.click("#velha-new").await?;
    s.status_has("velha", "X to play").await?;
    for (i, (row, col)) in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]
        .into_iter()
        .enumerate()
    {
        s.click(&format!(
            "#velha-board button[data-row=\"{row}\"][data-col=\"{col}\"]"
        ))
        .await?;
        let mark = if i % 2 == 0 { "X" } else { "O" };
        s.until(
            "the mark to appear",
            &format!(
                "return document.querySelector('#velha-board button[data-row=\"{row}\"][data-col=\"{col}\"]').textContent === '{mark}'"
            ),
        )
        .await?;
    }
    let status = s.status_has("velha", "Vencedor: X").await?;
    assert!(status.contains("X wins"), "{status}");
    let wins = s
        .js("return Array.from(document.querySelectorAll('#velha-board .cell.win')).map(c => c.getAttribute('aria-label'))")
        .await?;
    assert_eq!(
        wins,
        json!([
            "A1, X, winning line",
            "A2, X, winning line",
            "A3, X, winning line"
        ])
    );
    s.screenshot("velha-two-players.png").await?;
    Ok(())
}

#[allow(
    clippy::too_many_lines,
    reason = "one browser session played as a person plays it: its steps are the test, in order"
)]
async fn velha_against_the_computer_by_keyboard(s: &Shared) -> Result<(), Failed> {
    s.tab("velha").await?;
    s.choose("velha-opponent", "hard").await?;
    s.choose("velha-first", "computer").await?;
    s.click("#velha-new").await?;
    s.status_has("velha", "Your turn").await?;
    let status = s.text("velha-status").await?;
    assert!(
        status.starts_with("The computer (hard) played "),
        "{status}"
    );
    let computer = s
        .js("return document.querySelectorAll('#velha-board .cell.computer').length")
        .await?;
    assert_eq!(computer, json!(1), "the computer's move is highlighted");
    s.screenshot("velha-computer-opened.png").await?;

    // The arrow keys move the focus over the grid.
    let focused = s
        .client
        .find(Locator::Css("#velha-board button[tabindex=\"0\"]"))
        .await
        .map_err(|e| e.to_string())?;
    focused
        .send_keys(&(Key::Right + ""))
        .await
        .map_err(|e| e.to_string())?;
    let label = s
        .js("return document.activeElement.getAttribute('aria-label')")
        .await?;
    assert!(
        label.as_str().is_some_and(|l| l.starts_with("B3")),
        "{label}"
    );

    // Play the first empty cell with Enter (or Space) until the game ends.
    let mut moves = 0;
    loop {
        let over = s
            .js("return document.getElementById('velha-board').classList.contains('over')")
            .await?;
        if over == json!(true) {
            break;
        }
        let cells = s
            .client
            .find_all(Locator::Css("#velha-board button.cell"))
            .await
            .map_err(|e| e.to_string())?;
        let mut empty = None;
        for cell in cells {
            let label = cell.attr("aria-label").await.map_err(|e| e.to_string())?;
            if label.is_some_and(|l| l.ends_with(", empty")) {
                empty = Some(cell);
                break;
            }
        }
        let cell = empty.ok_or("a game in progress has an empty cell")?;
        let key = if moves % 2 == 0 {
            Key::Enter
        } else {
            Key::Space
        };
        cell.send_keys(&(key + ""))
            .await
            .map_err(|e| e.to_string())?;
        moves += 1;
        s.until(
            "the computer's reply",
            &format!(
                "return document.getElementById('velha-board').classList.contains('over') || \
                 document.querySelectorAll('#velha-board .cell.x, #velha-board .cell.o').length >= {}",
                2 * moves + 1
            ),
        )
        .await?;
        if moves > 9 {
            return Err("more than 9 moves".into());
        }
    }
    let status = s.text("velha-status").await?;
    assert!(
        status.contains("Empate") || status.contains("Vencedor: X — the computer wins"),
        "the hard computer never loses: {status}"
    );
    s.screenshot("velha-computer.png").await?;
    Ok(())
}

async fn discs(s: &Shared) -> Result<u64, Failed> {
    let n = s
        .js("return document.querySelectorAll('#connect4-board .hole.x, #connect4-board .hole.o').length")
        .await?;
    Ok(n.as_u64().unwrap_or(0))
}

#[allow(
    clippy::too_many_lines,
    reason = "one browser session played as a person plays it: its steps are the test, in order"
)]
async fn connect4_two_players_and_the_perfect_computer(s: &Shared) -> Result<(), Failed> {
    s.tab("connect4").await?;
    s.choose("connect4-opponent", "").await?;
    s.click("#connect4-new").await?;
    s.status_has("connect4", "blue to play").await?;
    for (i, col) in [0, 1, 0, 1, 0, 1, 0].into_iter().enumerate() {
        s.click(&format!("#connect4-board button[data-col=\"{col}\"]"))
            .await?;
        s.until(
            "the disc to fall",
            &format!(
                "return document.querySelectorAll('#connect4-board .hole.x, #connect4-board .hole.o').length === {}",
                i + 1
            ),
        )
        .await?;
    }
    let status = s.status_has("connect4", "Player one won!").await?;
    assert!(status.contains("blue wins"), "{status}");
    // One colour per player, as the terminal and the TUI paint them: the
    // first player blue, the second red (velha's X and O alike).
    let colours = s
        .js(
            "const c = (q) => getComputedStyle(document.querySelector(q)).backgroundColor; \
             const style = getComputedStyle(document.documentElement); \
             return [c('#connect4-board .hole.x'), c('#connect4-board .hole.o'), \
                     style.getPropertyValue('--x').trim(), style.getPropertyValue('--o').trim()]",
        )
        .await?;
    assert_eq!(
        colours,
        json!(["rgb(31, 95, 191)", "rgb(192, 57, 43)", "#1f5fbf", "#c0392b"])
    );
    let wins = s
        .js("return document.querySelectorAll('#connect4-board .hole.win').length")
        .await?;
    assert_eq!(wins, json!(4));
    let label = s
        .js("return document.querySelector('#connect4-board button[data-col=\"0\"]').getAttribute('aria-label')")
        .await?;
    assert_eq!(label, json!("Column 1, 4 discs"));

    // Against the perfect player: always the leftmost free column, by
    // keyboard (Enter on the column's button).
    s.choose("connect4-opponent", "perfect").await?;
    s.choose("connect4-first", "person").await?;
    s.click("#connect4-new").await?;
    s.status_has("connect4", "Your turn").await?;
    let started = Instant::now();
    loop {
        let over = s
            .js("return document.getElementById('connect4-board').classList.contains('over')")
            .await?;
        if over == json!(true) {
            break;
        }
        let before = discs(s).await?;
        let free = s
            .js("return Array.from(document.querySelectorAll('#connect4-board button.column')).findIndex(b => !b.hasAttribute('aria-disabled'))")
            .await?;
        let column = s
            .client
            .find(Locator::Css(&format!(
                "#connect4-board button[data-col=\"{free}\"]"
            )))
            .await
            .map_err(|e| e.to_string())?;
        column
            .send_keys(&(Key::Enter + ""))
            .await
            .map_err(|e| e.to_string())?;
        s.until(
            "the computer's reply",
            &format!(
                "return document.getElementById('connect4-board').classList.contains('over') || \
                 document.querySelectorAll('#connect4-board .hole.x, #connect4-board .hole.o').length >= {}",
                before + 2
            ),
        )
        .await?;
    }
    let status = s.text("connect4-status").await?;
    println!(
        "    against perfect: {status:?} in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        status.contains("Computer won! — the computer wins."),
        "{status}"
    );
    let highlighted = s
        .js("return document.querySelectorAll('#connect4-board .hole.win').length >= 4")
        .await?;
    assert_eq!(highlighted, json!(true));
    s.screenshot("connect4.png").await?;
    Ok(())
}

async fn mastermind_by_clicks_then_the_computer_solves_it(s: &Shared) -> Result<(), Failed> {
    s.tab("mastermind").await?;
    s.click("#mastermind-new").await?;
    s.status_has("mastermind", "10 guesses left").await?;
    // A guess by clicks: slot 1 is chosen; each colour fills the next slot.
    for colour in [0, 0, 1, 2] {
        s.click(&format!(
            "#mastermind-palette button[data-colour=\"{colour}\"]"
        ))
        .await?;
    }
    let slots = s
        .js("return Array.from(document.querySelectorAll('#mastermind-slots .slot')).map(b => b.textContent).join('')")
        .await?;
    assert_eq!(slots, json!("AABC"));
    s.click("#mastermind-submit").await?;
    s.status_has("mastermind", "9 guesses left").await?;
    // A second guess typed: letters fill the slots.
    let slot = s
        .client
        .find(Locator::Css("#mastermind-slots .slot"))
        .await
        .map_err(|e| e.to_string())?;
    slot.send_keys("ddef").await.map_err(|e| e.to_string())?;
    s.click("#mastermind-submit").await?;
    s.status_has("mastermind", "8 guesses left").await?;
    let rows = s
        .js("return Array.from(document.querySelectorAll('#mastermind-rows .mm-row:not(.future)')).map(r => ({ \
             label: r.getAttribute('aria-label'), feedback: r.querySelector('.feedback').textContent, \
             black: r.querySelectorAll('.key.black').length, white: r.querySelectorAll('.key.white').length }))")
        .await?;
    let rows = rows.as_array().ok_or("rows")?;
    assert_eq!(rows.len(), 2);
    for (row, guess) in rows.iter().zip(["AABC", "DDEF"]) {
        let (black, white) = (
            row["black"].as_u64().unwrap(),
            row["white"].as_u64().unwrap(),
        );
        let feedback = format!("{black} black, {white} white");
        assert_eq!(row["feedback"], json!(feedback));
        let label = row["label"].as_str().unwrap_or_default();
        assert!(
            label.contains(guess) && label.ends_with(&feedback),
            "{label}"
        );
    }
    assert_eq!(
        s.text("mastermind-secret").await?,
        "",
        "no secret before the end"
    );

    s.click("#mastermind-solve").await?;
    s.until(
        "the revealed secret",
        "return document.getElementById('mastermind-secret-code') !== null",
    )
    .await?;
    let secret = s
        .js("return document.getElementById('mastermind-secret-code').dataset.code")
        .await?;
    let secret = secret.as_str().ok_or("a secret")?.to_owned();
    let status = s.text("mastermind-status").await?;
    assert!(
        status.starts_with("Solved by the computer: found in "),
        "the codebreaker found it, not the player: {status}"
    );
    let last = s
        .js("return Array.from(document.querySelectorAll('#mastermind-rows .mm-row:not(.future)')).pop().getAttribute('aria-label')")
        .await?;
    let last = last.as_str().unwrap_or_default();
    assert!(
        last.contains("(computer)") && last.contains(&format!("{secret}, 4 black, 0 white")),
        "{last}"
    );
    let shown = s.text("mastermind-secret").await?;
    assert!(shown.contains(&secret), "{shown}");
    s.screenshot("mastermind.png").await?;
    Ok(())
}

async fn the_page_fits_a_phone(s: &Shared) -> Result<(), Failed> {
    s.client
        .set_window_size(375, 812)
        .await
        .map_err(|e| e.to_string())?;
    let result = async {
        for game in ["velha", "connect4", "mastermind"] {
            s.tab(game).await?;
            let fits = s
                .js("return [document.documentElement.scrollWidth, window.innerWidth]")
                .await?;
            let (scroll, inner) = (fits[0].as_u64(), fits[1].as_u64());
            assert!(
                scroll <= inner && inner.is_some_and(|w| w <= 400),
                "{game}: the page is {scroll:?} px wide in a {inner:?} px window"
            );
            s.screenshot(&format!("phone-{game}.png")).await?;
        }
        Ok::<(), Failed>(())
    }
    .await;
    s.client
        .set_window_size(1000, 1100)
        .await
        .map_err(|e| e.to_string())?;
    result
}

async fn controls_are_labelled_buttons(s: &Shared) -> Result<(), Failed> {
    let report = s
        .js("const missing = []; \
             for (const b of document.querySelectorAll('#velha-board .cell, #connect4-board .column, #mastermind-slots .slot, #mastermind-palette .colour')) { \
               if (b.tagName !== 'BUTTON' || !b.getAttribute('aria-label')) missing.push(b.outerHTML.slice(0, 80)); } \
             const live = Array.from(document.querySelectorAll('[aria-live]')).map(e => e.id); \
             return { missing, live }")
        .await?;
    assert_eq!(report["missing"], json!([]));
    for id in ["velha-status", "connect4-status", "mastermind-status"] {
        assert!(
            report["live"]
                .as_array()
                .is_some_and(|l| l.contains(&json!(id))),
            "{report}"
        );
    }
    Ok(())
}

/// A small class graded for its feedback pages: a Python class of two, one
/// whose exam passes and one that failed cases, hidden ones among them
/// (`--no-sandbox`: the kit's own submissions, and no crate to build).
/// Returns the output folder and the two students' names.
fn graded_class(scratch: &Path) -> (PathBuf, [&'static str; 2]) {
    let names = ["ana-planted-name", "bia-planted-name"];
    let exams = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grading/python_exams");
    for (name, from) in names.iter().zip(["diego", "bruno"]) {
        let folder = scratch.join("class").join(name);
        std::fs::create_dir_all(&folder).unwrap();
        for file in ["funcoes.py", "programa.py"] {
            std::fs::copy(exams.join(from).join(file), folder.join(file)).unwrap();
        }
    }
    let out = scratch.join("grades");
    let mut command = Command::new(env!("CARGO_BIN_EXE_boardkit"));
    command
        .args([
            "grade",
            "velha",
            "--language",
            "python",
            "--no-sandbox",
            "--out",
        ])
        .arg(&out);
    for name in names {
        command.arg(scratch.join("class").join(name));
    }
    let graded = command.output().expect("boardkit grade runs");
    assert!(graded.status.success(), "{graded:?}");
    (out, names)
}

/// Each student's feedback page, in the browser: it names no other
/// student, holds none of its hidden cases' inputs (the instructor's
/// `instructor/<name>/hidden.json`), works without scripts, and passes axe-core's
/// accessibility check (from npm, `cli/tests/package.json`).
async fn feedback_pages_are_the_students_alone_and_accessible(s: &Shared) -> Result<(), Failed> {
    let axe_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node_modules/axe-core/axe.min.js");
    let axe = match std::fs::read_to_string(&axe_path) {
        Ok(axe) => axe,
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("axe-core missing ({e}): run `npm ci` in cli/tests; the check is skipped");
            return Ok(());
        }
        Err(e) => return Err(format!("{}: {e} (npm ci in cli/tests)", axe_path.display()).into()),
    };
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (out, names) = graded_class(scratch.path());
    for (i, name) in names.iter().enumerate() {
        let other = names[1 - i];
        let folder = out.join("students").join(name);
        let page = folder.join("feedback.html");
        let html = std::fs::read_to_string(&page).map_err(|e| e.to_string())?;
        let markdown =
            std::fs::read_to_string(folder.join("feedback.md")).map_err(|e| e.to_string())?;
        let hidden: std::collections::BTreeMap<String, String> = serde_json::from_str(
            &std::fs::read_to_string(out.join("instructor").join(name).join("hidden.json"))
                .map_err(|e| e.to_string())?,
        )
        .map_err(|e| e.to_string())?;
        for text in [&html, &markdown] {
            if text.contains(other) || text.contains("<script") {
                return Err(format!("{name}'s feedback names {other} or holds a script").into());
            }
            for (case, detail) in &hidden {
                if text.contains(case.as_str()) {
                    return Err(format!("{name}'s feedback names the hidden case {case}").into());
                }
                // The lines of input a hidden case's detail shows.
                for line in detail
                    .lines()
                    .filter(|l| l.starts_with("the input up to there: "))
                {
                    let input = line.trim_start_matches("the input up to there: ");
                    if input.len() > 8 && text.contains(input) {
                        return Err(
                            format!("{name}'s feedback holds hidden input {input:?}").into()
                        );
                    }
                }
            }
        }
        if i == 1 && !markdown.contains("hidden case") {
            return Err(format!("{name}'s feedback counts no hidden case:\n{markdown}").into());
        }
        s.client
            .goto(&format!("file://{}", page.display()))
            .await
            .map_err(|e| e.to_string())?;
        s.client
            .execute(&format!("{axe}\nreturn true;"), vec![])
            .await
            .map_err(|e| format!("axe-core: {e}"))?;
        let violations = s
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];\
                 axe.run(document).then(r => done(r.violations.map(v => v.id + ': ' + v.help + ' (' + v.nodes.length + ')')));",
                vec![],
            )
            .await
            .map_err(|e| format!("axe.run: {e}"))?;
        if violations.as_array().is_none_or(|v| !v.is_empty()) {
            return Err(format!("{name}'s feedback.html: {violations}").into());
        }
        println!("feedback: {} passes axe-core", page.display());
    }
    s.client
        .goto(&format!("{}/", s.url))
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

#[allow(
    clippy::too_many_lines,
    reason = "the harness: the table of browser tests, and one browser and driver started for them all"
)]
fn main() {
    let mut args = Arguments::from_args();
    // One browser, one test at a time.
    args.test_threads = Some(1);
    let driver_path = find_tool("BOARDKIT_CHROMEDRIVER", &["chromedriver"]);
    let chromium = find_tool("BOARDKIT_CHROMIUM", &["chromium", "chromium-browser"]);
    let names = [
        "velha_two_players_by_clicks",
        "velha_against_the_computer_by_keyboard",
        "connect4_two_players_and_the_perfect_computer",
        "mastermind_by_clicks_then_the_computer_solves_it",
        "controls_are_labelled_buttons",
        "the_page_fits_a_phone",
        "feedback_pages_are_the_students_alone_and_accessible",
    ];
    let selected = names.iter().any(|name| {
        args.filter.as_deref().is_none_or(|f| {
            if args.exact {
                *name == f
            } else {
                name.contains(f)
            }
        }) && !args.skip.iter().any(|s| name.contains(s.as_str()))
    });
    let (Some(driver_path), Some(chromium)) = (driver_path, chromium) else {
        if std::env::var_os("CI").is_some() {
            eprintln!(
                "browser tests: chromedriver or chromium is missing and CI is set: \
                 install them (apt-get install chromium chromium-driver)"
            );
            std::process::exit(101);
        }
        eprintln!(
            "browser tests skipped: chromedriver or chromium not found (apt-get install chromium chromium-driver)"
        );
        let trials = names
            .iter()
            .map(|name| Trial::test(*name, || Ok(())).with_ignored_flag(true))
            .collect();
        libtest_mimic::run(&args, trials).exit();
    };
    // A browser session takes seconds: the everyday `cargo test` lists
    // these as ignored, and `.ci/run` runs them (`-- --ignored`).
    let asked = args.ignored || args.include_ignored;
    if args.list || !selected || !asked {
        let trials = names
            .iter()
            .map(|name| Trial::test(*name, || Ok(())).with_ignored_flag(true))
            .collect();
        libtest_mimic::run(&args, trials).exit();
    }

    let server = Server::start(&["--seed", "2024"]);
    let driver = Driver::start(&driver_path);
    let profile = tempfile::tempdir().expect("a profile folder");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-screenshots");
    std::fs::create_dir_all(&shots).expect("the screenshots' folder");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1000,1100",
                format!("--user-data-dir={}", profile.path().display()),
            ],
        },
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    let client = runtime
        .block_on(async {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            tokio::time::timeout(
                Duration::from_secs(60),
                ClientBuilder::new(connector)
                    .capabilities(capabilities)
                    .connect(&format!("http://127.0.0.1:{}", driver.port)),
            )
            .await
        })
        .expect("chromium started within 60 s")
        .expect("a WebDriver session");
    runtime
        .block_on(async {
            client.goto(&format!("{}/", server.url)).await?;
            client.set_window_size(1000, 1100).await
        })
        .expect("the page loads");
    let shared = Arc::new(Shared {
        runtime,
        client,
        url: server.url.clone(),
        shots,
    });
    // Every game is ready once the page has started all three.
    shared
        .block(shared.until(
            "the page to start its games",
            "return document.querySelectorAll('#velha-board .cell').length === 9 && \
             document.querySelectorAll('#connect4-board .column').length === 7 && \
             document.getElementById('mastermind-status').textContent.includes('left')",
        ))
        .expect("the page starts");
    println!("page: {}/", shared.url);

    macro_rules! trial {
        ($name:ident) => {{
            let s = shared.clone();
            Trial::test(stringify!($name), move || s.block($name(&s))).with_ignored_flag(true)
        }};
    }
    let trials = vec![
        trial!(velha_two_players_by_clicks),
        trial!(velha_against_the_computer_by_keyboard),
        trial!(connect4_two_players_and_the_perfect_computer),
        trial!(mastermind_by_clicks_then_the_computer_solves_it),
        trial!(controls_are_labelled_buttons),
        trial!(the_page_fits_a_phone),
        trial!(feedback_pages_are_the_students_alone_and_accessible),
    ];
    let conclusion = libtest_mimic::run(&args, trials);
    // Closing the session quits the browser; then chromedriver goes, then
    // the server (their guards).
    match Arc::try_unwrap(shared) {
        Ok(shared) => {
            let _ = shared.runtime.block_on(async {
                tokio::time::timeout(Duration::from_secs(20), shared.client.close()).await
            });
        }
        Err(_) => {
            eprintln!("browser tests: the session is still shared; chromedriver's end stops it")
        }
    }
    drop(driver);
    drop(server);
    drop(profile);
    conclusion.exit();
}
