//! `boardkit serve`: the HTTP server (axum on tokio) that hands out the page
//! and answers its JSON API. The routes, their bodies and the limits are
//! documented in docs/players.md, "Browser".
//!
//! Every failure a client can cause is answered, never panicked on: a JSON
//! body `{"error": "..."}` with a 4xx status (503 when the store is full),
//! for unknown routes and methods too. The computer's moves run on tokio's
//! blocking threads, at most one per core at once (each may hold a 64 MiB
//! table), with only their own game locked, so the server keeps answering
//! while a perfect player thinks.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, extract::Request};
use clap::builder::TypedValueParser as _;
use tokio::sync::{OwnedMutexGuard, Semaphore};

use super::api::{ErrorBody, GameState, Move, NewGame};
use super::games::{GameError, WebGame, WebTable};
use super::store::{DEFAULT_MAX_GAMES, Limits, Store};
use serde_json::{Map, Value};

/// The largest request body taken, in bytes (a move is a few dozen).
pub(crate) const MAX_BODY_BYTES: usize = 16 * 1024;

/// How much of a refused (oversized) body is still read, and thrown away,
/// before the 413 is sent. A client writes its whole body before it reads
/// the answer; had the server closed with the body unread, the client's
/// write would meet a reset and it would never see the 413. Past this bound
/// the server stops reading and closes: it owes no client unbounded work.
pub(crate) const MAX_DRAINED_BYTES: u64 = 1024 * 1024;

/// The port `boardkit serve` listens on by default.
pub(crate) const DEFAULT_PORT: u16 = 8080;

/// The page for `games`: a tab and a section per game, each game's markup
/// its own file.
fn index_html(games: &[&WebTable]) -> String {
    let mut tabs = String::new();
    let mut sections = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let (id, first) = (game.id, i == 0);
        let (selected, rest) = if first {
            ("true", "")
        } else {
            ("false", r#" tabindex="-1""#)
        };
        tabs += &format!(
            "      <button type=\"button\" role=\"tab\" id=\"tab-{id}\" aria-controls=\"{id}\" \
             aria-selected=\"{selected}\"{rest}>{}</button>\n",
            game.title
        );
        let hidden = if first { "" } else { " hidden" };
        sections.push(format!(
            "<section id=\"{id}\" class=\"game\" role=\"tabpanel\" aria-labelledby=\"tab-{id}\"{hidden}>\n{}</section>\n",
            game.markup
        ));
    }
    include_str!("page/index.html")
        .replace("{tabs}", &tabs)
        .replace("{sections}", &sections.join("\n"))
}

/// The page's script for `games`: what every game shares, then each game's
/// drawing (a file of its own), served as one.
fn app_js(games: &[&WebTable]) -> String {
    let games = games.iter().map(|game| game.script);
    std::iter::once(include_str!("page/app.js"))
        .chain(games)
        .collect()
}

const STYLE_CSS: &str = include_str!("page/style.css");

/// `boardkit serve`'s options.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on. The default serves this machine only;
    /// 0.0.0.0 serves any network it is on (nothing is authenticated).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Makes every game reproducible: the computer's random choices and
    /// Mastermind's secrets (a request's own `seed` still wins).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Live games at most; beyond them a new game is refused (503).
    #[arg(long, default_value_t = DEFAULT_MAX_GAMES, value_parser = clap::value_parser!(u64).range(1..=1_000_000).map(|n| n as usize))]
    pub max_games: usize,
    /// Seconds after which a game nobody asked about is forgotten.
    #[arg(long, value_name = "SECONDS", default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServeError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What every handler shares.
struct App {
    /// The games served, in the page's order.
    games: Vec<&'static WebTable>,
    /// The page and its script, made for those games.
    index: String,
    script: String,
    store: Store,
    /// The server's `--seed`, and how many games took a seed from it.
    seed: Option<u64>,
    games_made: AtomicU64,
    /// One permit per core: the computer's moves thinking at once.
    thinkers: Arc<Semaphore>,
}

type Shared = Arc<App>;

/// An error answer: a status and `{"error": "..."}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn no_game(id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no game {shown:?}: it never existed, was deleted or expired"),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(ErrorBody {
                error: self.message,
            }),
        )
            .into_response()
    }
}

impl From<JsonRejection> for ApiError {
    /// axum's statuses: 400 bad JSON, 422 JSON of the wrong shape, 415 not
    /// JSON, 413 too large.
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        let status = match error {
            GameError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::Illegal(_) => StatusCode::CONFLICT,
        };
        ApiError::new(status, error.to_string())
    }
}

/// The router: the page, its script and style, the API; JSON errors for
/// everything else.
fn router(app: Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|State(app): State<Shared>| async move {
                page("text/html; charset=utf-8", app.index.clone()).await
            }),
        )
        .route(
            "/app.js",
            get(|State(app): State<Shared>| async move {
                page("text/javascript; charset=utf-8", app.script.clone()).await
            }),
        )
        .route(
            "/style.css",
            get(|| page("text/css; charset=utf-8", STYLE_CSS)),
        )
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show).delete(remove))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/codebreaker", post(codebreaker))
        .fallback(|request: Request| async move {
            let path: String = request.uri().path().chars().take(100).collect();
            ApiError::new(StatusCode::NOT_FOUND, format!("no route {path}"))
        })
        .method_not_allowed_fallback(|request: Request| async move {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!(
                    "{} is not allowed on {}",
                    request.method(),
                    request.uri().path().chars().take(100).collect::<String>()
                ),
            )
        })
        .layer(middleware::from_fn(bounded_body))
        .with_state(app)
}

/// Reads every request's body before its handler runs, keeping at most
/// [`MAX_BODY_BYTES`]. A longer body is read on to its end and thrown away
/// (up to [`MAX_DRAINED_BYTES`]), then refused with 413: the client has
/// finished writing by then, so it reads the answer whatever its timing.
async fn bounded_body(request: Request, next: Next) -> Response {
    use http_body_util::BodyExt as _;
    let (parts, mut body) = request.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_DRAINED_BYTES) {
        return too_large(true);
    }
    let mut kept = Vec::new();
    let mut total: u64 = 0;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                "the request's body could not be read",
            )
            .into_response();
        };
        let Ok(data) = frame.into_data() else {
            continue; // trailers
        };
        total += data.len() as u64;
        if total <= MAX_BODY_BYTES as u64 {
            kept.extend_from_slice(&data);
        } else if total > MAX_DRAINED_BYTES {
            return too_large(true);
        }
    }
    if total > MAX_BODY_BYTES as u64 {
        return too_large(false);
    }
    next.run(Request::from_parts(parts, Body::from(kept))).await
}

/// 413; `close` when the body was not read to its end, so the connection
/// cannot carry another request.
fn too_large(close: bool) -> Response {
    let mut response = ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the request's body is over {} KiB", MAX_BODY_BYTES / 1024),
    )
    .into_response();
    if close {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

fn shared(limits: Limits, seed: Option<u64>, games: Vec<&'static WebTable>) -> Shared {
    let thinkers = std::thread::available_parallelism().map_or(2, |n| n.get());
    Arc::new(App {
        index: index_html(&games),
        script: app_js(&games),
        games,
        store: Store::new(limits),
        seed,
        games_made: AtomicU64::new(0),
        thinkers: Arc::new(Semaphore::new(thinkers)),
    })
}

async fn page(content_type: &'static str, body: impl IntoResponse) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'",
            ),
        ],
        body,
    )
        .into_response()
}

/// Runs `work` on a blocking thread with the game it locks, once a thinker
/// is free; gives the game back.
async fn think(
    app: &App,
    mut game: OwnedMutexGuard<WebGame>,
    work: fn(&mut WebGame) -> Result<(), GameError>,
) -> Result<OwnedMutexGuard<WebGame>, ApiError> {
    let _permit =
        app.thinkers.clone().acquire_owned().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
    let (game, result) = tokio::task::spawn_blocking(move || {
        let result = work(&mut game);
        (game, result)
    })
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the computer failed to move",
        )
    })?;
    result?;
    Ok(game)
}

fn play_computer(game: &mut WebGame) -> Result<(), GameError> {
    game.play_computer();
    Ok(())
}

fn state(id: String, game: &WebGame) -> Json<GameState> {
    Json(GameState {
        id,
        view: game.view(),
    })
}

fn find(app: &App, id: &str) -> Result<super::store::SharedGame, ApiError> {
    app.store.get(id).ok_or_else(|| ApiError::no_game(id))
}

/// A request's body as a JSON object: well-formed JSON that is not one is
/// of the wrong shape (422, as axum says of JSON it cannot take).
fn object(Json(body): Json<Value>) -> Result<Map<String, Value>, ApiError> {
    match body {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the body is a JSON object",
        )),
    }
}

async fn create(
    State(app): State<Shared>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let request: NewGame = object(body?)?;
    let seed = match app.seed {
        Some(base) => base.wrapping_add(app.games_made.fetch_add(1, Ordering::Relaxed)),
        None => rand::random(),
    };
    let game = WebGame::new(&request, seed, &app.games)?;
    let (id, game) = app
        .store
        .insert(game)
        .map_err(|full| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, full.to_string()))?;
    let mut game = game.lock_owned().await;
    if game.computer_to_move() {
        game = think(&app, game, play_computer).await?;
    }
    Ok((StatusCode::CREATED, state(id, &game)))
}

async fn show(
    State(app): State<Shared>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<GameState>, ApiError> {
    let Path(id) = id?;
    let game = find(&app, &id)?;
    let game = game.lock().await;
    Ok(state(id, &game))
}

async fn remove(
    State(app): State<Shared>,
    id: Result<Path<String>, PathRejection>,
) -> Result<StatusCode, ApiError> {
    let Path(id) = id?;
    if app.store.remove(&id) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::no_game(&id))
    }
}

async fn play(
    State(app): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<Json<GameState>, ApiError> {
    let Path(id) = id?;
    let game = find(&app, &id)?;
    let request: Move = object(body?)?;
    let mut game = game.lock_owned().await;
    game.play(&request)?;
    if game.computer_to_move() {
        game = think(&app, game, play_computer).await?;
    }
    Ok(state(id, &game))
}

async fn codebreaker(
    State(app): State<Shared>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<GameState>, ApiError> {
    let Path(id) = id?;
    let game = find(&app, &id)?.lock_owned().await;
    let game = think(&app, game, WebGame::codebreaker_guess).await?;
    Ok(state(id, &game))
}

/// Forgets idle games every so often, so they free their memory even when
/// nobody creates a game.
async fn sweep(app: Shared) {
    let every =
        (app.store.limits().idle / 2).clamp(Duration::from_secs(1), Duration::from_secs(60));
    let mut ticks = tokio::time::interval(every);
    loop {
        ticks.tick().await;
        app.store.sweep();
    }
}

/// Serves the page and the API until Ctrl-C, after printing the address
/// listened on (`boardkit: serving on http://127.0.0.1:8080/`) on stdout.
pub(crate) fn serve(args: &ServeArgs, games: Vec<&'static WebTable>) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        let local = listener.local_addr()?;
        let limits = Limits {
            max_games: args.max_games,
            idle: Duration::from_secs(args.idle_timeout),
        };
        let app = shared(limits, args.seed, games);
        tokio::spawn(sweep(app.clone()));
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            writeln!(out, "boardkit: serving on http://{local}/")?;
            writeln!(out, "boardkit: press Ctrl-C to stop")?;
            out.flush()?;
        }
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
