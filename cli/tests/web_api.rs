//! The browser's JSON API, through the real binary (`boardkit serve --port
//! 0`) and a real HTTP client: whole games of each game, the seeds, the
//! limits, and every kind of bad request answered with a 4xx JSON error.

use crate::serve;

use std::time::{Duration, Instant};

use boardkit::mastermind::{Rules, random_secret};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use serve::Server;

/// Every request of these tests ends within this.
const TIMEOUT: Duration = Duration::from_secs(30);

fn client() -> Client {
    Client::builder()
        .timeout(TIMEOUT)
        .build()
        .expect("an HTTP client")
}

/// `method url` with a JSON body (or none); the status and the JSON answer.
async fn call(
    client: &Client,
    method: Method,
    url: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = client.request(method, url);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status();
    let text = response.text().await.expect("a body");
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"))
    };
    (status, value)
}

async fn create(client: &Client, server: &Server, request: Value) -> Value {
    let (status, state) = call(
        client,
        Method::POST,
        &format!("{}/api/games", server.url),
        Some(request),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    state
}

async fn play(client: &Client, server: &Server, id: &str, request: Value) -> Value {
    let (status, state) = call(
        client,
        Method::POST,
        &format!("{}/api/games/{id}/moves", server.url),
        Some(request),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    state
}

fn game_id(state: &Value) -> String {
    state["id"].as_str().expect("an id").to_owned()
}

/// The first empty cell of a board, `(row, col)`.
fn first_empty(state: &Value) -> (usize, usize) {
    let cells = state["cells"].as_array().unwrap();
    for (r, row) in cells.iter().enumerate() {
        for (c, cell) in row.as_array().unwrap().iter().enumerate() {
            if cell.is_null() {
                return (r, c);
            }
        }
    }
    panic!("no empty cell in {state}")
}

#[tokio::test]
async fn the_page_its_script_and_style_are_served_from_the_binary() {
    let server = Server::start(&[]);
    let client = client();
    for (path, kind, needle) in [
        ("/", "text/html", "<script src=\"/app.js\""),
        ("/app.js", "text/javascript", "/api/games"),
        ("/style.css", "text/css", ".velha-grid"),
    ] {
        let response = client
            .get(format!("{}{path}", server.url))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let content_type = response.headers()["content-type"].to_str().unwrap();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        let text = response.text().await.unwrap();
        assert!(text.contains(needle), "{path}");
        // Works offline: nothing is fetched from elsewhere.
        assert!(
            !text.contains("https://") && !text.contains("//cdn"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn velha_two_players_reach_a_win_with_its_line() {
    let server = Server::start(&[]);
    let client = client();
    let state = create(&client, &server, json!({"game": "velha"})).await;
    assert_eq!(state["game"], "velha");
    assert_eq!(
        (state["rows"].as_u64(), state["turn"].as_str()),
        (Some(3), Some("X"))
    );
    let id = game_id(&state);
    let mut state = state;
    for (row, col) in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)] {
        state = play(&client, &server, &id, json!({"row": row, "col": col})).await;
    }
    assert_eq!(state["over"], true);
    assert_eq!(state["winner"], "X");
    assert_eq!(state["result"], "Vencedor: X");
    assert_eq!(state["winning_cells"], json!([[0, 0], [0, 1], [0, 2]]));
    assert_eq!(state["turn"], Value::Null);
    // GET gives the same state.
    let (status, again) = call(
        &client,
        Method::GET,
        &format!("{}/api/games/{id}", server.url),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, state);
}

#[tokio::test]
async fn velha_the_hard_computer_never_loses_at_any_seat() {
    let server = Server::start(&[]);
    let client = client();
    for computer_first in [true, false] {
        let mut state = create(
            &client,
            &server,
            json!({"game": "velha", "opponent": "hard", "computer_first": computer_first}),
        )
        .await;
        let computer = if computer_first { "X" } else { "O" };
        assert_eq!(
            state["computer"],
            json!({"level": "hard", "mark": computer})
        );
        if computer_first {
            assert_eq!(state["moves"], 1, "the computer opened: {state}");
            assert!(state["computer_move"].is_array());
        }
        let id = game_id(&state);
        while state["over"] == false {
            let (row, col) = first_empty(&state);
            state = play(&client, &server, &id, json!({"row": row, "col": col})).await;
            if state["over"] == false {
                assert_eq!(state["computer_move"], state["last_move"], "{state}");
            }
        }
        assert!(
            state["winner"].is_null() || state["winner"] == computer,
            "{state}"
        );
    }
}

#[tokio::test]
async fn connect_four_two_players_and_every_computer_level() {
    let server = Server::start(&[]);
    let client = client();
    let state = create(&client, &server, json!({"game": "connect4"})).await;
    let id = game_id(&state);
    let mut state = state;
    for col in [0, 1, 0, 1, 0, 1, 0] {
        state = play(&client, &server, &id, json!({"col": col})).await;
    }
    assert_eq!(state["result"], "Player one won!");
    assert_eq!(state["winner"], "X");
    assert_eq!(state["cells"][5][0], "X", "rows are listed top first");
    assert_eq!(state["winning_cells"].as_array().unwrap().len(), 4);

    // Every level plays a whole game against a person who always plays the
    // leftmost free column (an 8 x 5 board for random and smart).
    for (level, cols, rows) in [("random", 8, 5), ("smart", 8, 5), ("perfect", 7, 6)] {
        let started = Instant::now();
        let mut state = create(
            &client,
            &server,
            json!({"game": "connect4", "opponent": level, "cols": cols, "rows": rows, "seed": 3}),
        )
        .await;
        let id = game_id(&state);
        while state["over"] == false {
            let top = state["cells"][0].as_array().unwrap();
            let col = top.iter().position(Value::is_null).unwrap();
            state = play(&client, &server, &id, json!({"col": col})).await;
        }
        println!("{level}: {} in {:?}", state["result"], started.elapsed());
        if level != "random" {
            assert_eq!(state["result"], "Computer won!", "{level}: {state}");
            assert_eq!(state["winner"], "O");
        }
    }
}

#[tokio::test]
async fn the_perfect_player_takes_only_the_standard_board() {
    let server = Server::start(&[]);
    let client = client();
    let (status, body) = call(
        &client,
        Method::POST,
        &format!("{}/api/games", server.url),
        Some(json!({"game": "connect4", "opponent": "perfect", "cols": 8})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("7 columns x 6 rows")
    );
}

#[tokio::test]
async fn mastermind_keeps_its_secret_until_the_end_then_shows_it() {
    let server = Server::start(&[]);
    let client = client();
    let secret = random_secret(Rules::default(), &mut ChaCha8Rng::seed_from_u64(42)).to_string();
    let state = create(&client, &server, json!({"game": "mastermind", "seed": 42})).await;
    let id = game_id(&state);
    assert_eq!(
        (
            state["pegs"].as_u64(),
            state["colors"].as_u64(),
            state["turns"].as_u64()
        ),
        (Some(4), Some(6), Some(10))
    );
    let wrong = if secret == "AAAA" { "BBBB" } else { "AAAA" };
    let state = play(&client, &server, &id, json!({"guess": wrong})).await;
    for shown in [
        &state,
        &call(
            &client,
            Method::GET,
            &format!("{}/api/games/{id}", server.url),
            None,
        )
        .await
        .1,
    ] {
        assert_eq!(shown["secret"], Value::Null);
        assert_eq!(shown["over"], false);
        assert!(
            !shown.to_string().contains(&secret),
            "the secret leaked: {shown}"
        );
    }
    let row = &state["guesses"][0];
    let expected = boardkit::mastermind::score(
        &boardkit::mastermind::parse_guess(&secret, Rules::default()).unwrap(),
        &boardkit::mastermind::parse_guess(wrong, Rules::default()).unwrap(),
    );
    assert_eq!(
        (row["black"].as_u64(), row["white"].as_u64()),
        (Some(expected.black.into()), Some(expected.white.into()))
    );
    let state = play(
        &client,
        &server,
        &id,
        json!({"guess": secret.to_lowercase()}),
    )
    .await;
    assert_eq!(state["over"], true);
    assert_eq!(state["won"], true);
    assert_eq!(state["secret"], secret.as_str());
    assert_eq!(state["result"], "You win");
    assert_eq!(state["guesses"][1]["black"], 4);
}

#[tokio::test]
async fn mastermind_ten_misses_lose_and_the_codebreaker_wins() {
    let server = Server::start(&["--seed", "9"]);
    let client = client();
    let state = create(&client, &server, json!({"game": "mastermind", "seed": 5})).await;
    let id = game_id(&state);
    let secret = random_secret(Rules::default(), &mut ChaCha8Rng::seed_from_u64(5)).to_string();
    let wrong = if secret == "FFFF" { "EEEE" } else { "FFFF" };
    let mut state = state;
    for _ in 0..10 {
        state = play(&client, &server, &id, json!({"guess": wrong})).await;
    }
    assert_eq!(
        (state["over"].as_bool(), state["won"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(state["result"], "You lose!");
    assert_eq!(state["secret"], secret.as_str());

    // The codebreaker: from an empty board, the optimal tree wins within 5.
    let state = create(&client, &server, json!({"game": "mastermind"})).await;
    let id = game_id(&state);
    let mut state = state;
    while state["over"] == false {
        let (status, next) = call(
            &client,
            Method::POST,
            &format!("{}/api/games/{id}/codebreaker", server.url),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        state = next;
    }
    let guesses = state["guesses"].as_array().unwrap();
    assert_eq!(state["won"], true, "{state}");
    assert!(guesses.len() <= 5, "{state}");
    assert!(guesses.iter().all(|g| g["by_computer"] == true));
    assert_eq!(guesses.last().unwrap()["guess"], state["secret"]);
}

#[tokio::test]
async fn seeds_make_games_reproducible() {
    let server = Server::start(&[]);
    let client = client();
    let mut boards = Vec::new();
    for _ in 0..2 {
        let mut state = create(
            &client,
            &server,
            json!({"game": "connect4", "opponent": "random", "computer_first": true, "seed": 11}),
        )
        .await;
        let id = game_id(&state);
        // The person fills the columns from the left, the computer answers
        // at random.
        while state["over"] == false {
            let top = state["cells"][0].as_array().unwrap();
            let col = top.iter().position(Value::is_null).unwrap();
            state = play(&client, &server, &id, json!({"col": col})).await;
        }
        boards.push(state["cells"].clone());
    }
    assert_eq!(boards[0], boards[1]);

    // The server's --seed seeds the games that bring none: two servers with
    // one seed draw the same secrets, in order.
    let mut secrets = Vec::new();
    for _ in 0..2 {
        let server = Server::start(&["--seed", "77"]);
        let mut found = Vec::new();
        for _ in 0..3 {
            let state = create(&client, &server, json!({"game": "mastermind"})).await;
            let id = game_id(&state);
            let mut state = state;
            while state["over"] == false {
                state = call(
                    &client,
                    Method::POST,
                    &format!("{}/api/games/{id}/codebreaker", server.url),
                    None,
                )
                .await
                .1;
            }
            found.push(state["secret"].clone());
        }
        secrets.push(found);
    }
    assert_eq!(secrets[0], secrets[1]);
    assert_ne!(secrets[0][0], secrets[0][1], "{:?}", secrets[0]);
}

/// A bad request: method, URL, body, content type, the status expected.
type BadRequest<'a> = (
    Method,
    String,
    Option<reqwest::Body>,
    Option<&'a str>,
    StatusCode,
);

/// A request that must be refused with `status` and a JSON error.
async fn refused(
    client: &Client,
    method: Method,
    url: &str,
    body: Option<reqwest::Body>,
    content_type: Option<&str>,
    status: StatusCode,
) -> String {
    let mut request = client.request(method.clone(), url);
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    if let Some(body) = body {
        request = request.body(body);
    }
    let response = request.send().await.expect("the server answers");
    assert_eq!(response.status(), status, "{method} {url}");
    let content = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        content.starts_with("application/json"),
        "{method} {url}: {content}"
    );
    let body: Value = response.json().await.expect("a JSON error");
    let error = body["error"].as_str().expect("an error message").to_owned();
    assert!(!error.is_empty());
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
    error
}

#[tokio::test]
#[allow(
    clippy::too_many_lines,
    reason = "a table of bad requests, one request and its expected status a line: data"
)]
async fn every_bad_request_gets_a_4xx_json_error() {
    let mut server = Server::start(&[]);
    let client = client();
    let url = server.url.clone();
    let games = format!("{url}/api/games");
    const JSON: Option<&str> = Some("application/json");
    let text = |s: &str| Some(reqwest::Body::from(s.to_owned()));

    let velha = create(&client, &server, json!({"game": "velha"})).await;
    let velha = format!("{games}/{}", game_id(&velha));
    let c4 = create(
        &client,
        &server,
        json!({"game": "connect4", "rows": 4, "cols": 4}),
    )
    .await;
    let c4 = format!("{games}/{}", game_id(&c4));
    let mm = create(&client, &server, json!({"game": "mastermind"})).await;
    let mm = format!("{games}/{}", game_id(&mm));

    use StatusCode as S;
    let cases: Vec<BadRequest> = vec![
        // Unknown ids.
        (
            Method::GET,
            format!("{games}/nope"),
            None,
            None,
            S::NOT_FOUND,
        ),
        (
            Method::DELETE,
            format!("{games}/0123456789abcdef0123456789abcdef"),
            None,
            None,
            S::NOT_FOUND,
        ),
        (
            Method::POST,
            format!("{games}/nope/moves"),
            text(r#"{"col": 1}"#),
            JSON,
            S::NOT_FOUND,
        ),
        (
            Method::POST,
            format!("{games}/nope/codebreaker"),
            None,
            None,
            S::NOT_FOUND,
        ),
        // Malformed JSON, JSON of the wrong shape, not JSON.
        (
            Method::POST,
            games.clone(),
            text("{\"game\": "),
            JSON,
            S::BAD_REQUEST,
        ),
        (
            Method::POST,
            games.clone(),
            text("\u{0}\u{1}garbage"),
            JSON,
            S::BAD_REQUEST,
        ),
        (
            Method::POST,
            format!("{velha}/moves"),
            text("[1, 2"),
            JSON,
            S::BAD_REQUEST,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "chess"}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"size": 3}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "velha", "size": -1}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "velha", "colour": 1}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{velha}/moves"),
            text(r#"{"row": "B", "col": 1}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{velha}/moves"),
            text(r#"{"cell": "B2"}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "velha"}"#),
            Some("text/plain"),
            S::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "velha"}"#),
            None,
            S::UNSUPPORTED_MEDIA_TYPE,
        ),
        // Games that cannot be.
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "velha", "size": 10}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "velha", "opponent": "godlike"}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "velha", "computer_first": true}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "connect4", "rows": 3}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            games.clone(),
            text(r#"{"game": "connect4", "cols": 99999999999}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        // Moves off the board, of another game, or of bad letters.
        (
            Method::POST,
            format!("{velha}/moves"),
            text(r#"{"row": 3, "col": 0}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{velha}/moves"),
            text(r#"{"col": 0}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{c4}/moves"),
            text(r#"{"col": 4}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{c4}/moves"),
            text(r#"{"guess": "ABCD"}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{mm}/moves"),
            text(r#"{"guess": "ABCG"}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{mm}/moves"),
            text(r#"{"guess": "ABCDE"}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("{mm}/moves"),
            text(r#"{"row": 1, "col": 1}"#),
            JSON,
            S::UNPROCESSABLE_ENTITY,
        ),
        // Only Mastermind has a codebreaker.
        (
            Method::POST,
            format!("{velha}/codebreaker"),
            None,
            None,
            S::CONFLICT,
        ),
        // Oversized bodies, with and without a length.
        (
            Method::POST,
            games.clone(),
            text(&format!(
                r#"{{"game": "velha", "pad": "{}"}}"#,
                "x".repeat(100_000)
            )),
            JSON,
            S::PAYLOAD_TOO_LARGE,
        ),
        // Wrong methods, unknown routes.
        (
            Method::PUT,
            games.clone(),
            None,
            None,
            S::METHOD_NOT_ALLOWED,
        ),
        (
            Method::GET,
            games.clone(),
            None,
            None,
            S::METHOD_NOT_ALLOWED,
        ),
        (
            Method::GET,
            format!("{velha}/moves"),
            None,
            None,
            S::METHOD_NOT_ALLOWED,
        ),
        (
            Method::DELETE,
            format!("{url}/"),
            None,
            None,
            S::METHOD_NOT_ALLOWED,
        ),
        (Method::GET, format!("{url}/nope"), None, None, S::NOT_FOUND),
        (Method::GET, format!("{url}/api"), None, None, S::NOT_FOUND),
        (
            Method::GET,
            format!("{velha}/moves/extra"),
            None,
            None,
            S::NOT_FOUND,
        ),
    ];
    for (method, url, body, content_type, status) in cases {
        refused(&client, method, &url, body, content_type, status).await;
    }

    // Illegal now, by the rules: 409.
    play(
        &client,
        &server,
        &velha[velha.rfind('/').unwrap() + 1..],
        json!({"row": 1, "col": 1}),
    )
    .await;
    let error = refused(
        &client,
        Method::POST,
        &format!("{velha}/moves"),
        text(r#"{"row": 1, "col": 1}"#),
        JSON,
        S::CONFLICT,
    )
    .await;
    assert!(error.contains("taken"), "{error}");
    let c4_id = &c4[c4.rfind('/').unwrap() + 1..];
    for _ in 0..4 {
        play(&client, &server, c4_id, json!({"col": 2})).await;
    }
    let error = refused(
        &client,
        Method::POST,
        &format!("{c4}/moves"),
        text(r#"{"col": 2}"#),
        JSON,
        S::CONFLICT,
    )
    .await;
    assert!(error.contains("full"), "{error}");

    // Deleted games are gone.
    let (status, _) = call(&client, Method::DELETE, &mm, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    refused(&client, Method::GET, &mm, None, None, S::NOT_FOUND).await;

    // After all that, the server still serves.
    assert!(server.is_running());
    create(&client, &server, json!({"game": "velha"})).await;
}

/// Sends a body of `bytes` bytes in chunks, without a Content-Length; the
/// status line and the body of the answer.
fn chunked_post(url: &str, path: &str, bytes: usize) -> (String, String) {
    use std::io::{Read, Write};
    let addr = url.strip_prefix("http://").unwrap();
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(TIMEOUT)).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b' '; 4096];
    let mut sent = 0;
    while sent < bytes {
        // The server may answer and close before the whole body is sent.
        let part = format!("{:x}\r\n", chunk.len());
        if stream.write_all(part.as_bytes()).is_err()
            || stream.write_all(&chunk).is_err()
            || stream.write_all(b"\r\n").is_err()
        {
            break;
        }
        sent += chunk.len();
    }
    let _ = stream.write_all(b"0\r\n\r\n");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (
        head.lines().next().unwrap_or("").to_owned(),
        body.to_owned(),
    )
}

/// A client writes its whole body before it reads the answer: the server
/// reads a refused body to its end (up to 1 MiB) before it answers, so the
/// client reads the 413 every time, never a broken pipe or a reset. Each
/// size is sent several times, fresh connections and reused ones alike.
#[tokio::test]
async fn an_oversized_body_is_read_before_it_is_refused() {
    let server = Server::start(&[]);
    let client = client();
    let url = format!("{}/api/games", server.url);
    // The largest body still under the 1 MiB the server reads to its end
    // (a larger one is answered at once and the connection closed).
    for size in [16 * 1024 + 1, 100_000, (1 << 20) - 64] {
        for _ in 0..5 {
            let body = format!(r#"{{"game": "velha", "pad": "{}"}}"#, "x".repeat(size));
            let error = refused(
                &client,
                Method::POST,
                &url,
                Some(body.into()),
                Some("application/json"),
                StatusCode::PAYLOAD_TOO_LARGE,
            )
            .await;
            assert!(error.contains("16 KiB"), "{error}");
        }
    }
    // The connection a refused body came on still serves.
    create(&client, &server, json!({"game": "velha"})).await;
    // A body just under the bound is read and judged as JSON.
    let body = format!(r#"{{"game": "velha", "pad": "{}"}}"#, "x".repeat(16_000));
    refused(
        &client,
        Method::POST,
        &url,
        Some(body.into()),
        Some("application/json"),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
}

#[tokio::test]
async fn an_oversized_chunked_body_is_refused_too() {
    let server = Server::start(&[]);
    let url = server.url.clone();
    let (status, body) =
        tokio::task::spawn_blocking(move || chunked_post(&url, "/api/games", 1 << 20))
            .await
            .unwrap();
    assert!(status.contains(" 413 "), "{status}");
    assert!(body.contains("\"error\""), "{body}");
}

#[tokio::test]
async fn the_store_is_capped_and_idle_games_expire() {
    // The cap, on a server whose games never idle out during the test: a
    // slow machine cannot turn a full store into an expired one.
    let server = Server::start(&["--max-games", "3", "--idle-timeout", "3600"]);
    let client = client();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(game_id(
            &create(&client, &server, json!({"game": "mastermind"})).await,
        ));
    }
    let error = refused(
        &client,
        Method::POST,
        &format!("{}/api/games", server.url),
        Some(r#"{"game": "velha"}"#.into()),
        Some("application/json"),
        StatusCode::SERVICE_UNAVAILABLE,
    )
    .await;
    assert!(error.contains("3 live games"), "{error}");
    let (status, _) = call(
        &client,
        Method::DELETE,
        &format!("{}/api/games/{}", server.url, ids[0]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    create(&client, &server, json!({"game": "velha"})).await;

    // Expiry, on a server whose games idle out after a second: only "at
    // least this long untouched" is waited for, which no delay can undo.
    let server = Server::start(&["--max-games", "3", "--idle-timeout", "1"]);
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(game_id(
            &create(&client, &server, json!({"game": "mastermind"})).await,
        ));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for id in &ids {
        refused(
            &client,
            Method::GET,
            &format!("{}/api/games/{id}", server.url),
            None,
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
    // Expired games free their places.
    for _ in 0..3 {
        create(&client, &server, json!({"game": "velha"})).await;
    }
}

#[tokio::test]
async fn a_slow_computer_move_does_not_hold_up_other_games() {
    let server = Server::start(&[]);
    let client = client();
    let other = create(&client, &server, json!({"game": "velha"})).await;
    let other = format!("{}/api/games/{}", server.url, game_id(&other));
    // Seed 10 and these columns lead the perfect player out of its
    // repertoire: its fifth reply takes the solver a while (about half a
    // second in a debug build).
    let state = create(
        &client,
        &server,
        json!({"game": "connect4", "opponent": "perfect", "seed": 10}),
    )
    .await;
    let id = game_id(&state);
    for col in [2, 1, 0, 3] {
        let state = play(&client, &server, &id, json!({"col": col})).await;
        assert_eq!(state["over"], false);
    }
    let slow = {
        let (client, server_url, id) = (client.clone(), server.url.clone(), id.clone());
        tokio::spawn(async move {
            let started = Instant::now();
            let response = client
                .post(format!("{server_url}/api/games/{id}/moves"))
                .json(&json!({"col": 4}))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            started.elapsed()
        })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut answered_meanwhile = 0;
    let mut slowest = Duration::ZERO;
    while !slow.is_finished() {
        let started = Instant::now();
        let (status, _) = call(&client, Method::GET, &other, None).await;
        assert_eq!(status, StatusCode::OK);
        slowest = slowest.max(started.elapsed());
        answered_meanwhile += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let thinking = slow.await.unwrap();
    println!(
        "the perfect move took {thinking:?}; {answered_meanwhile} other requests answered \
         meanwhile, the slowest in {slowest:?}"
    );
    if thinking > Duration::from_millis(200) {
        assert!(answered_meanwhile > 0);
        assert!(slowest < thinking / 2, "{slowest:?} against {thinking:?}");
    } else {
        println!("(the move was too quick here to show anything)");
    }
}
