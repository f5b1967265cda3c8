//! Connect four's function cases, and the answers accepted for each request
//! of the driver (`boardkit::harness::connect4::answer`), computed with the
//! reference in the grader's process. Kit-only.

use super::case;
use boardkit::connect4::board::Board;
use boardkit::connect4::solver::{Position, Shape, Solver};
use boardkit::function_fixture::FunctionCase;
use boardkit::harness::connect4::{answer, standard_board};
use boardkit::level::Level;

/// Positions of the standard benchmark sets (End-Easy, Middle-Easy).
const BENCHMARK_POSITIONS: &[&str] = &[
    "2252576253462244111563365343671351441",
    "7422341735647741166133573473242566",
    "23163416124767223154467471272416755633",
    "71255763773133525731261364622167124446454",
    "65214673556155731566316327373221417",
    "52677675164321472411331752454",
    "3135151421347443544172316522225776773566",
    "562154564361751726662253737734213275114",
    "233377345754465174223731671122611552",
    "6763525635134453444361412671365712",
    "211376455663355325112113664364524722",
    "3146762114467714356347741621375222",
    "67152117737262713366376314254",
    "2762751722231276466633475674533",
    "3642756176227637211322113551637574556",
    "22647455554314246733661634615122372377511",
    "427566236745127177115664464254",
    "7172212567451542223676134464437761515",
    "641154574541323641152467137655232232366",
    "5775265212657176476365522624313714333",
    "3575316255751336464276636772271112",
    "75662564375666511575212332122171447733",
    "3576127617575661522124647446257235344113",
    "655651721435342216255374674123",
    "335413424327172446337172625415575517",
    "12156756715535615116237724723",
    "4744236462134233111155374771566655522",
    "144324431445513573673777361765615215226",
    "466337133772221726726511133452571",
    "5577777735365512235162362241426611",
    "5554224333234511764415115",
    "52753311433677442422121",
    "1233722555341451114725221333",
    "271713432331713132",
    "6672375354252731116762237724",
    "763452543756455357732314",
    "662222576343651642712157",
    "3455565261655364217",
    "4661237137541742643224",
    "21253774536432517717274325",
    "715371563635542612576371",
    "4435612735531457155143",
    "3457741246677474572223453551",
    "754732466173162124726115261",
    "64115442265757253615",
    "34651743747475571565",
    "36127316172165452675422251",
    "4235245615377275211512",
    "122435527534575161761",
    "473175162213611457122724",
    "5533212164224336233241461",
    "1231426213112346726266353",
    "45277231624411643516213",
    "1667675535724753771415352132",
    "41416453222527221644",
    "1715764132212113656454",
    "651142666562345525716135112",
    "7532455277545526",
    "2737772244262123677516643354",
    "5746741223753516274755",
];

/// Every answer accepted for a request, computed with the reference in the
/// grader's process: `smart` must win if it can, else block, else play;
/// `random` any legal column; `random_uniform` and `smart_uniform` a
/// uniform draw over the legal columns (and, for `smart_uniform`, positions
/// with no win to take or block); `random_replay` the same game twice;
/// `best_move` a column of best exact score.
pub(crate) fn accepted(request: &str) -> Vec<String> {
    let mut words = request.split_whitespace();
    let kind = words.next().unwrap_or("");
    if kind == "random_replay" {
        return vec!["same".to_owned()];
    }
    if ![
        "smart",
        "random",
        "random_uniform",
        "smart_uniform",
        "best_move",
    ]
    .contains(&kind)
    {
        return vec![answer(request)];
    }
    let moves = if ["best_move", "random_uniform", "smart_uniform"].contains(&kind) {
        words.next()
    } else {
        words.nth(1)
    }
    .unwrap_or("");
    let Some(board) = standard_board(moves) else {
        return vec![answer(request)];
    };
    let legal = board.legal_columns();
    let me = board.to_move();
    let columns: Vec<usize> = match kind {
        "smart" => {
            let wins: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&c| board.is_winning_drop(c, me))
                .collect();
            let blocks: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&c| board.is_winning_drop(c, me.other()))
                .collect();
            if !wins.is_empty() {
                wins
            } else if !blocks.is_empty() {
                blocks
            } else {
                legal
            }
        }
        "random" => legal,
        "random_uniform" | "smart_uniform" => {
            let all: Vec<String> = legal.iter().map(|c| (c + 1).to_string()).collect();
            return vec![format!("uniform over {}", all.join(" "))];
        }
        _ => {
            let shape = Shape::standard();
            let Ok(position) = Position::from_board(&board) else {
                return vec![];
            };
            Solver::with_table(shape, 1 << 20).best_columns(&position)
        }
    };
    columns.iter().map(|c| (c + 1).to_string()).collect()
}

/// Whether either side could win at once on `board`: a position where the
/// smart player must not draw at random.
fn has_threat(board: &Board) -> bool {
    let me = board.to_move();
    board
        .legal_columns()
        .iter()
        .any(|&c| board.is_winning_drop(c, me) || board.is_winning_drop(c, me.other()))
}

/// Random positions of the 7 x 6 board with at least one full column and
/// two legal ones, no four yet, as moves from 1: where a player that skips
/// full columns by taking a neighbour would show its bias.
fn positions_with_full_columns(count: usize, seed: u64, quiet: bool) -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let length = rng.random_range(8..34);
        // Filling one column first makes full columns common.
        let favourite = rng.random_range(0..7);
        let (board, moves) = random_walk(&mut rng, length, Some(favourite));
        let legal = board.legal_columns().len();
        if (2..7).contains(&legal) && !(quiet && has_threat(&board)) {
            found.push(moves);
        }
    }
    found
}

/// Up to `length` random moves on the 7 x 6 board, stopping before a move
/// that would connect four or fill the board: the position and its moves
/// (columns from 1). With a `favourite`, each move takes it half the time
/// while it is open.
fn random_walk(
    rng: &mut rand_chacha::ChaCha8Rng,
    length: usize,
    favourite: Option<usize>,
) -> (Board, String) {
    use rand::RngExt;
    let mut board = Board::standard();
    let mut moves = String::new();
    while moves.len() < length {
        let legal = board.legal_columns();
        let col = match favourite {
            Some(f) if legal.contains(&f) && rng.random_bool(0.5) => f,
            _ => legal[rng.random_range(0..legal.len())],
        };
        let mut next = board.clone();
        let row = next.play(col).expect("legal");
        if next.connects_four(row, col) || next.is_full() {
            break;
        }
        board = next;
        moves.push(char::from(b'1' + col as u8));
    }
    (board, moves)
}

/// Random games on boards of 4 to 9 rows and columns, as `game` requests'
/// arguments: every drop, refused ones too, until four in a row.
fn random_games(count: usize, seed: u64) -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let rows = rng.random_range(4..=9);
            let cols = rng.random_range(4..=9);
            let mut board =
                boardkit::connect4::board::Board::new(rows, cols).expect("a valid size");
            let mut columns = Vec::new();
            for _ in 0..rng.random_range(0..90) {
                let col = rng.random_range(0..cols);
                columns.push(col.to_string());
                if let Ok(row) = board.play(col) {
                    if board.connects_four(row, col) || board.is_full() {
                        break;
                    }
                }
            }
            format!("{rows} {cols} {}", columns.join(" "))
        })
        .collect()
}

/// Random games on boards of 4 to 8 rows and columns that end in four in
/// a row, as `four` requests' arguments: fours in every direction, asked of
/// every cell, not only of the last disc.
fn won_games(count: usize, seed: u64) -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let rows = rng.random_range(4..=8);
        let cols = rng.random_range(4..=8);
        let mut board = boardkit::connect4::board::Board::new(rows, cols).expect("a valid size");
        let mut columns = Vec::new();
        loop {
            let legal = board.legal_columns();
            if legal.is_empty() {
                break;
            }
            let col = legal[rng.random_range(0..legal.len())];
            let row = board.play(col).expect("legal");
            columns.push(col.to_string());
            if board.connects_four(row, col) {
                found.push(format!("{rows} {cols} {}", columns.join(" ")));
                break;
            }
        }
    }
    found
}

/// Random positions of the 7 x 6 board with no four yet, as moves from 1.
fn random_positions(count: usize, seed: u64) -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let length = rng.random_range(0..36);
            random_walk(&mut rng, length, None).1
        })
        .collect()
}

/// The function-level cases, their calls' arguments only (the accepted
/// answers are the reference's, added by the grader).
#[allow(
    clippy::too_many_lines,
    reason = "a table of cases: data, read case by case, not steps"
)]
pub(crate) fn cases() -> Vec<FunctionCase> {
    let game = |rows: usize, cols: usize, moves: &[usize]| {
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        format!("{rows} {cols} {}", moves.join(" "))
    };
    // Every column of every size filled up, then one more: fills, full columns, a full board.
    let mut fill = Vec::new();
    for rows in 4..=7 {
        for cols in 4..=8 {
            let moves: Vec<usize> = (0..cols)
                .flat_map(|c| std::iter::repeat_n(c, rows + 1))
                .collect();
            fill.push(game(rows, cols, &moves));
        }
    }
    let smart = random_positions(400, 7)
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{i} {m}"))
        .collect();
    let random = random_positions(200, 8)
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{i} {m}"))
        .collect();
    let mut uniform = random_positions(8, 9);
    uniform.extend(positions_with_full_columns(16, 10, false));
    let quiet = positions_with_full_columns(12, 11, true);
    let (end, middle) = BENCHMARK_POSITIONS.split_at(BENCHMARK_POSITIONS.len() / 2);
    let best = |set: &[&str]| set.iter().map(|m| (*m).to_owned()).collect();
    vec![
        case(
            Level::Advanced,
            "smart_wins_else_blocks",
            "SmartPlayer (seed, then the columns played from 1) wins at once if it can, else blocks, else plays a legal column",
            "smart",
            smart,
        ),
        case(
            Level::Advanced,
            "random_plays_legal_columns",
            "RandomPlayer (seed, then the columns played from 1) plays a legal column",
            "random",
            random,
        ),
        case(
            Level::Advanced,
            "random_is_uniform",
            "RandomPlayer draws every legal column equally often, full columns or not (2,000 draws a column; a uniform player fails once in a million runs)",
            "random_uniform",
            uniform,
        ),
        case(
            Level::Advanced,
            "smart_is_uniform_with_nothing_to_win_or_block",
            "SmartPlayer with no win to take or block draws every legal column equally often",
            "smart_uniform",
            quiet,
        ),
        case(
            Level::Advanced,
            "random_replays_a_game",
            "two RandomPlayers made with one seed play one game",
            "random_replay",
            (0..10).map(|s| s.to_string()).collect(),
        ),
        case(
            Level::Basic,
            "random_games_on_every_size",
            "random drops on boards of 4 to 9 rows and columns: the row, four in a row, full columns, a full board",
            "game",
            random_games(400, 12),
        ),
        case(
            Level::Basic,
            "four_through_every_cell",
            "connects_four asked of every cell after games won in every direction, not only of the last disc",
            "four",
            won_games(150, 13),
        ),
        case(
            Level::Expert,
            "best_move_end_positions",
            "best_move plays a column of best exact score (end-game positions)",
            "best_move",
            best(end),
        ),
        case(
            Level::Expert,
            "best_move_middle_positions",
            "best_move plays a column of best exact score (middle-game positions)",
            "best_move",
            best(middle),
        ),
        case(
            Level::Basic,
            "four_in_a_row_every_direction",
            "drops (rows, columns, then columns from 0) answer the row, and +4 on four in a row in every direction",
            "game",
            vec![
                game(6, 7, &[3, 0, 3, 0, 3, 0, 3]),
                game(6, 7, &[0, 0, 1, 1, 2, 2, 3]),
                game(6, 7, &[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]),
                game(6, 7, &[6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3]),
                game(6, 7, &[0, 0, 1, 1, 3, 3, 2]),
                game(4, 4, &[0, 1, 0, 1, 0, 1, 0]),
                game(5, 12, &[8, 8, 9, 9, 10, 10, 11]),
                game(12, 5, &[4, 3, 4, 3, 4, 3, 4]),
                game(4, 7, &[5, 5, 6, 6, 0, 1, 3, 3]),
            ],
        ),
        case(
            Level::Basic,
            "full_columns_and_full_boards",
            "every column of every size filled, then one more: full columns and a full board",
            "game",
            fill,
        ),
        case(
            Level::Basic,
            "columns_out_of_range_and_sizes",
            "columns off the board, and sizes below 4 or above the bound",
            "game",
            vec![
                game(6, 7, &[7, 8, 100, 3]),
                game(3, 7, &[0]),
                game(6, 21, &[0]),
                game(20, 20, &[19, 0]),
            ],
        ),
    ]
}
