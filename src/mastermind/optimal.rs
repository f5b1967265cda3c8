//! The optimal codebreaker: the strategy with the fewest guesses in all over
//! every secret (5,625 for the standard game's 1,296 secrets, 4.340 a game,
//! at most 6: Koyama and Lai, 1993), found by an exact search and shipped as
//! a small decision tree.
//!
//! Why: the heuristic codebreakers of [`super::solver`] pick the guess that
//! splits the candidates best by one measure (5,668 guesses at best); the
//! optimum needs a look ahead over whole subtrees. [`search`] is that look
//! ahead, an exact depth-first branch and bound over every code as a guess
//! (not only the codes still possible):
//!
//! - the cost of a candidate set is the total number of guesses that find
//!   each of its codes, from here on; a guess's cost is the set's size plus
//!   its parts' costs (the part of a winning score excepted);
//! - a lower bound for a part of `k` codes: each code found at its own node
//!   of a tree whose nodes have at most one child per non-winning score (13
//!   on the standard game), so 1 code at depth 1, 13 at depth 2, 169 at
//!   depth 3...; a guess's bound adds its parts' bounds, and a set's bound
//!   is its best guess's, so a set of `n > 1` that no guess splits into
//!   single codes already costs more than `2n - 1`;
//! - guesses are tried best bound first (the finest partitions), so good
//!   solutions come first; a guess is dropped as soon as its running sum
//!   (parts done exactly, the rest by their bounds) reaches the best so far,
//!   and guesses with the same partition as one tried already are skipped;
//! - symmetry: among guesses that a colour and peg permutation keeping the
//!   candidate set maps onto each other, only one is tried (at the root, 5
//!   of 1,296: `AAAA`, `AAAB`, `AABB`, `AABC`, `ABCD`);
//! - exact costs, and the lower bounds proven when a set ran out of budget,
//!   are memoised by candidate set.
//!
//! On the standard game the whole search, every first guess weighed, takes
//! about 10 s on one core (docs/players.md). Given the first guess instead
//! (`AABC`, the best), the root's parts are independent and solved on
//! several threads, each with its own memo, so the result does not depend on
//! their timing; the tree is the same.
//!
//! The result, a [`Tree`], is stored by [`Tree::to_bytes`] as a text header
//! (`boardkit mastermind tree v1 pegs 4 colors 6 total 5625`, then a
//! newline) and the guesses, two bytes each (code index, little-endian), in
//! pre-order, a node's children in the order of their scores (blacks, then
//! whites, ascending). A node whose candidate set holds one or two codes is
//! not stored: its guess is the first of them. The reader recomputes the
//! candidate sets, so it knows which children exist. The standard game's
//! tree is embedded ([`Tree::standard`]); [`OptimalCodebreaker`] plays it.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::code::{Code, Rules, Score, score};
use super::program::DecodingBoard;
use super::solver::{self, Codebreaker};
use crate::player::Strategy;

/// The standard game's tree, as `boardkit book mastermind-optimal` wrote it.
static STANDARD_BYTES: &[u8] = include_bytes!("optimal.tree");

const MAGIC: &str = "boardkit mastermind tree v1";

/// The largest game a tree or a search takes on (codes in all).
pub const MAX_CODES: u64 = 4096;

/// Largest permutation group (pegs! x colours!) used for symmetry.
const MAX_SYMMETRIES: usize = 50_000;

/// Sets at least this large are reduced by their symmetries before a search.
const SYMMETRY_MIN_SET: usize = 12;

/// Why a game cannot be searched or a tree cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreeError {
    TooLarge(u64),
    Header,
    Truncated,
    Trailing(usize),
    BadCode(u16),
    NoProgress(String),
    Total { found: u64, expected: u64 },
    BadFirstGuess(String),
}

impl std::fmt::Display for TreeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TreeError::TooLarge(n) => write!(
                f,
                "{n} codes are too many for the optimal search: at most {MAX_CODES}"
            ),
            TreeError::Header => f.write_str("not a boardkit mastermind tree (bad header)"),
            TreeError::Truncated => f.write_str("the tree is cut short"),
            TreeError::Trailing(n) => write!(f, "the tree has {n} bytes past its end"),
            TreeError::BadCode(i) => write!(f, "code index {i} is not a code of the game"),
            TreeError::NoProgress(g) => {
                write!(f, "guess {g} does not split the codes still possible")
            }
            TreeError::Total { found, expected } => write!(
                f,
                "the tree takes {found} guesses in all, its header says {expected}"
            ),
            TreeError::BadFirstGuess(g) => {
                write!(f, "the first guess {g} is not a code of the game")
            }
        }
    }
}

impl std::error::Error for TreeError {}

/// Why [`OptimalCodebreaker::next_guess`] has no answer: the game left the
/// tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeftTree {
    OtherGuess {
        turn: usize,
        expected: String,
        found: String,
    },
    ImpossibleScore {
        turn: usize,
        score: Score,
    },
    OtherRules {
        tree: Rules,
        game: Rules,
    },
    Over(usize),
}

impl std::fmt::Display for LeftTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LeftTree::OtherGuess {
                turn,
                expected,
                found,
            } => write!(f, "guess {turn} was {found}, not the tree's {expected}"),
            LeftTree::ImpossibleScore { turn, score } => write!(
                f,
                "score {score} of guess {turn} is not possible for any secret"
            ),
            LeftTree::OtherRules { tree, game } => {
                write!(f, "the tree is for {tree:?}, the game is {game:?}")
            }
            LeftTree::Over(turn) => write!(f, "the game is over: guess {turn} found the secret"),
        }
    }
}

impl std::error::Error for LeftTree {}

/// The codes of a game, their scores against each other, and their
/// symmetries.
struct Game {
    rules: Rules,
    n: usize,
    codes: Vec<Code>,
    /// Scores, numbered in the order of [`Game::responses`].
    responses: Vec<Score>,
    /// `response_index[black * (pegs + 1) + white]`.
    response_index: Vec<u8>,
    win: u8,
    /// `table[guess * n + secret]`: the score's number.
    table: Vec<u8>,
    /// `bound[k]`: the fewest guesses that can find `k` codes.
    bound: Vec<u32>,
    /// Each peg permutation and each colour permutation, as a map of code
    /// indices (the identity alone when the group is too large to use, or
    /// for a game that is only played, not searched).
    peg_maps: Vec<Vec<u16>>,
    color_maps: Vec<Vec<u16>>,
}

impl Game {
    /// The game of `rules`, ready to be played or (`symmetric`) searched.
    fn new(rules: Rules, symmetric: bool) -> Result<Game, TreeError> {
        if rules.code_count() > MAX_CODES {
            return Err(TreeError::TooLarge(rules.code_count()));
        }
        let codes = Code::all(rules);
        let n = codes.len();
        let pegs = rules.pegs();
        let mut responses = Vec::new();
        let mut response_index = vec![u8::MAX; (pegs + 1) * (pegs + 1)];
        for black in 0..=pegs {
            for white in 0..=pegs - black {
                if black + 1 == pegs && white == 1 {
                    continue;
                }
                response_index[black * (pegs + 1) + white] = responses.len() as u8;
                responses.push(Score {
                    black: black as u8,
                    white: white as u8,
                });
            }
        }
        let win = response_index[pegs * (pegs + 1)];
        let mut table = vec![0u8; n * n];
        for (g, guess) in codes.iter().enumerate() {
            for (s, secret) in codes.iter().enumerate() {
                let sc = score(secret, guess);
                table[g * n + s] =
                    response_index[sc.black as usize * (pegs + 1) + sc.white as usize];
            }
        }
        // 1 code at depth 1, then (responses - 1) times as many at each depth.
        let branching = (responses.len() - 1) as u64;
        let mut bound = vec![0u32; n + 1];
        let (mut depth, mut room, mut used) = (1u32, 1u64, 0u64);
        for k in 1..=n {
            if used == room {
                depth += 1;
                room *= branching;
                used = 0;
            }
            used += 1;
            bound[k] = bound[k - 1] + depth;
        }
        let (peg_maps, color_maps) = if symmetric {
            symmetries(rules, &codes)
        } else {
            let identity: Vec<u16> = (0..n as u16).collect();
            (vec![identity.clone()], vec![identity])
        };
        Ok(Game {
            rules,
            n,
            codes,
            responses,
            response_index,
            win,
            table,
            bound,
            peg_maps,
            color_maps,
        })
    }

    /// The index of `code` (lexicographic order, `AAAA` is 0).
    fn index(&self, code: &Code) -> u16 {
        code.pegs()
            .iter()
            .fold(0usize, |i, &p| i * self.rules.colors() + p as usize) as u16
    }

    fn code(&self, index: u16) -> &Code {
        &self.codes[index as usize]
    }

    fn response(&self, guess: u16, secret: u16) -> u8 {
        self.table[guess as usize * self.n + secret as usize]
    }

    fn response_of(&self, score: Score) -> Option<u8> {
        let pegs = self.rules.pegs();
        if score.black as usize + score.white as usize > pegs {
            return None;
        }
        let i = self.response_index[score.black as usize * (pegs + 1) + score.white as usize];
        (i != u8::MAX).then_some(i)
    }

    /// `set`'s codes by their score against `guess` (sorted, as `set` is).
    fn partition(&self, set: &[u16], guess: u16) -> Vec<Vec<u16>> {
        let mut parts = vec![Vec::new(); self.responses.len()];
        for &s in set {
            parts[self.response(guess, s) as usize].push(s);
        }
        parts
    }

    /// The code indices that map each code of `set` into `set`, as (peg
    /// map, colour map) pairs; only the identity when symmetry is off.
    fn stabilizer(&self, set: &[u16], member: &[bool]) -> Vec<(usize, usize)> {
        let mut group = Vec::new();
        for (c, colors) in self.color_maps.iter().enumerate() {
            for (p, pegs) in self.peg_maps.iter().enumerate() {
                if set
                    .iter()
                    .all(|&s| member[colors[pegs[s as usize] as usize] as usize])
                {
                    group.push((p, c));
                }
            }
        }
        group
    }

    /// Whether `guess` is the smallest code of its orbit under `group`.
    fn is_representative(&self, guess: u16, group: &[(usize, usize)]) -> bool {
        group
            .iter()
            .all(|&(p, c)| self.color_maps[c][self.peg_maps[p][guess as usize] as usize] >= guess)
    }
}

/// Every permutation of `0..k`, in lexicographic order.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    fn extend(prefix: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == k {
            out.push(prefix.clone());
            return;
        }
        for i in 0..k {
            if !prefix.contains(&i) {
                prefix.push(i);
                extend(prefix, k, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::with_capacity(k), k, &mut out);
    out
}

/// The game's peg and colour permutations as maps of code indices, or none
/// when there are too many of them.
fn symmetries(rules: Rules, codes: &[Code]) -> (Vec<Vec<u16>>, Vec<Vec<u16>>) {
    let factorial = |k: usize| (1..=k).try_fold(1usize, |a, b| a.checked_mul(b));
    let size = factorial(rules.pegs()).and_then(|a| factorial(rules.colors()).map(|b| (a, b)));
    let index = |pegs: &[u8]| {
        pegs.iter()
            .fold(0usize, |i, &p| i * rules.colors() + p as usize) as u16
    };
    match size {
        Some((a, b)) if a.saturating_mul(b) <= MAX_SYMMETRIES => {
            let peg_maps = permutations(rules.pegs())
                .iter()
                .map(|perm| {
                    codes
                        .iter()
                        .map(|code| {
                            let pegs: Vec<u8> = perm.iter().map(|&i| code.pegs()[i]).collect();
                            index(&pegs)
                        })
                        .collect()
                })
                .collect();
            let color_maps = permutations(rules.colors())
                .iter()
                .map(|perm| {
                    codes
                        .iter()
                        .map(|code| {
                            let pegs: Vec<u8> = code
                                .pegs()
                                .iter()
                                .map(|&c| perm[c as usize] as u8)
                                .collect();
                            index(&pegs)
                        })
                        .collect()
                })
                .collect();
            (peg_maps, color_maps)
        }
        _ => {
            let identity: Vec<u16> = (0..codes.len() as u16).collect();
            (vec![identity.clone()], vec![identity])
        }
    }
}

/// A deterministic hasher for keys that are hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
    fn write_u128(&mut self, v: u128) {
        self.0 ^= v as u64 ^ (v >> 64) as u64;
    }
}

type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;

/// Two independent 64-bit hashes of a sorted candidate set.
fn set_key(set: &[u16]) -> u128 {
    let (mut a, mut b) = (0x243F_6A88_85A3_08D3u64, 0x1319_8A2E_0370_7344u64);
    for &s in set {
        a = (a ^ s as u64).wrapping_mul(0x100_0000_01B3).rotate_left(23);
        b = (b.rotate_left(17) ^ (s as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    }
    a ^= set.len() as u64;
    ((a as u128) << 64) | b as u128
}

#[derive(Clone, Copy)]
enum Entry {
    Exact { cost: u32, guess: u16 },
    AtLeast(u32),
}

/// One branch-and-bound search with its memo.
struct Searcher<'g> {
    game: &'g Game,
    memo: KeyMap<Entry>,
    nodes: u64,
}

impl<'g> Searcher<'g> {
    fn new(game: &'g Game) -> Searcher<'g> {
        Searcher {
            game,
            memo: KeyMap::default(),
            nodes: 0,
        }
    }

    /// The fewest guesses that find every code of `set` (sorted), from
    /// here on, if fewer than `budget`; otherwise `Err` with a proven lower
    /// bound, at least `budget`.
    fn cost(&mut self, set: &[u16], budget: u32) -> Result<u32, u32> {
        let game = self.game;
        let n = set.len();
        let within = |cost: u32| if cost < budget { Ok(cost) } else { Err(cost) };
        if n <= 2 {
            return within(game.bound[n]);
        }
        if game.bound[n] >= budget {
            return Err(game.bound[n]);
        }
        let key = set_key(set);
        match self.memo.get(&key) {
            Some(&Entry::Exact { cost, .. }) => return within(cost),
            Some(&Entry::AtLeast(bound)) if bound >= budget => return Err(bound),
            _ => {}
        }
        self.nodes += 1;
        // A code of the set that tells all the others apart: the least possible.
        let mut seen = vec![false; game.responses.len()];
        for &g in set {
            seen.iter_mut().for_each(|s| *s = false);
            if set.iter().all(|&s| {
                let r = game.response(g, s) as usize;
                !std::mem::replace(&mut seen[r], true)
            }) {
                let cost = 2 * n as u32 - 1;
                self.memo.insert(key, Entry::Exact { cost, guess: g });
                return within(cost);
            }
        }
        let guesses = self.ranked_guesses(set);
        let node_bound = guesses.first().map_or(u32::MAX, |g| g.bound);
        if node_bound >= budget {
            self.raise(key, node_bound);
            return Err(node_bound);
        }
        let mut best = budget;
        let mut best_guess = None;
        // The least proven bound among the guesses dropped.
        let mut dropped = u32::MAX;
        let mut partitions_tried: HashSet<u64, BuildHasherDefault<KeyHasher>> = HashSet::default();
        for ranked in &guesses {
            if ranked.bound >= best {
                dropped = dropped.min(ranked.bound);
                break;
            }
            if !partitions_tried.insert(partition_key(game, set, ranked.guess)) {
                continue;
            }
            let mut parts = game.partition(set, ranked.guess);
            parts.swap_remove(game.win as usize);
            parts.retain(|p| p.len() > 2);
            parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
            let mut running = ranked.bound;
            let mut complete = true;
            for part in &parts {
                let floor = game.bound[part.len()];
                let room = best - (running - floor);
                match self.cost(part, room) {
                    Ok(cost) => running += cost - floor,
                    Err(bound) => {
                        dropped = dropped.min(running - floor + bound);
                        complete = false;
                        break;
                    }
                }
            }
            if complete && running < best {
                best = running;
                best_guess = Some(ranked.guess);
                if best == node_bound {
                    break;
                }
            }
        }
        if let Some(guess) = best_guess {
            self.memo.insert(key, Entry::Exact { cost: best, guess });
            return Ok(best);
        }
        let bound = dropped.max(budget);
        self.raise(key, bound);
        Err(bound)
    }

    fn raise(&mut self, key: u128, bound: u32) {
        let entry = self.memo.entry(key).or_insert(Entry::AtLeast(bound));
        if let Entry::AtLeast(old) = entry {
            *old = (*old).max(bound);
        }
    }

    /// The guesses worth trying on `set` (one per symmetry class, none that
    /// leaves it whole), best lower bound first.
    fn ranked_guesses(&self, set: &[u16]) -> Vec<Ranked> {
        let game = self.game;
        let mut member = vec![false; game.n];
        for &s in set {
            member[s as usize] = true;
        }
        let group = if set.len() >= SYMMETRY_MIN_SET {
            game.stabilizer(set, &member)
        } else {
            Vec::new()
        };
        let mut counts = vec![0u32; game.responses.len()];
        let mut ranked = Vec::new();
        for guess in 0..game.n as u16 {
            if group.len() > 1 && !game.is_representative(guess, &group) {
                continue;
            }
            counts.iter_mut().for_each(|c| *c = 0);
            let row = &game.table[guess as usize * game.n..][..game.n];
            for &s in set {
                counts[row[s as usize] as usize] += 1;
            }
            let inside = member[guess as usize];
            if !inside && counts.contains(&(set.len() as u32)) {
                continue;
            }
            let mut bound = set.len() as u32;
            let mut parts = 0u32;
            for (r, &c) in counts.iter().enumerate() {
                if r != game.win as usize {
                    bound += game.bound[c as usize];
                }
                parts += u32::from(c > 0);
            }
            ranked.push(Ranked {
                bound,
                outside: !inside,
                parts,
                guess,
            });
        }
        ranked.sort_by_key(|r| (r.bound, r.outside, std::cmp::Reverse(r.parts), r.guess));
        ranked
    }

    /// The tree below `set` (sorted, already searched) as nodes in `tree`.
    fn extract(&self, set: &[u16], tree: &mut Vec<Node>) -> u32 {
        let guess = match set.len() {
            0 => unreachable!("no empty part has a node"),
            1 | 2 => set[0],
            _ => match self.memo.get(&set_key(set)) {
                Some(&Entry::Exact { guess, .. }) => guess,
                _ => unreachable!("every part of an optimal guess was solved exactly"),
            },
        };
        push_subtree(self.game, set, guess, tree, &mut |part, tree| {
            self.extract(part, tree)
        })
    }
}

/// Adds the node of `guess` on `set` and its children (made by `child`).
fn push_subtree(
    game: &Game,
    set: &[u16],
    guess: u16,
    tree: &mut Vec<Node>,
    child: &mut dyn FnMut(&[u16], &mut Vec<Node>) -> u32,
) -> u32 {
    let at = tree.len() as u32;
    let parts = game.partition(set, guess);
    tree.push(Node {
        guess,
        wins: !parts[game.win as usize].is_empty(),
        children: Vec::new(),
    });
    for (r, part) in parts.iter().enumerate() {
        if r as u8 != game.win && !part.is_empty() {
            let c = child(part, tree);
            tree[at as usize].children.push((r as u8, c));
        }
    }
    at
}

/// A label-free key of the partition `guess` makes of `set`, the same for
/// two guesses that split it into the same parts.
fn partition_key(game: &Game, set: &[u16], guess: u16) -> u64 {
    let mut names = [u8::MAX; 256];
    let mut next = 0u8;
    let mut hasher = KeyHasher(0x5851_F42D_4C95_7F2D);
    for &s in set {
        let r = game.response(guess, s) as usize;
        if names[r] == u8::MAX {
            names[r] = next;
            next += 1;
        }
        hasher.write(&[names[r]]);
    }
    hasher.finish()
}

#[derive(Clone, Copy)]
struct Ranked {
    bound: u32,
    outside: bool,
    parts: u32,
    guess: u16,
}

/// How a search goes: one report per part of the first guess solved.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Parts solved so far, of `parts`.
    pub done: usize,
    pub parts: usize,
    /// The part just solved: its codes and their total guesses.
    pub size: usize,
    pub cost: u32,
    /// Candidate sets searched for it.
    pub nodes: u64,
}

/// The optimal strategy for `rules`: the fewest guesses in all over every
/// secret. With `first`, the first guess is that code (the best first
/// guess of the standard game is `AABC`), and the parts it makes are solved
/// on `threads` threads; without, every first guess is weighed (one per
/// symmetry class), on one thread. Deterministic: the same tree every run.
pub fn search(
    rules: Rules,
    first: Option<&Code>,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Tree, TreeError> {
    let game = Game::new(rules, true)?;
    let all: Vec<u16> = (0..game.n as u16).collect();
    let mut nodes = Vec::new();
    match first {
        None => {
            let mut searcher = Searcher::new(&game);
            searcher
                .cost(&all, u32::MAX)
                .expect("any budget is enough below u32::MAX");
            searcher.extract(&all, &mut nodes);
            progress(Progress {
                done: 1,
                parts: 1,
                size: all.len(),
                cost: tree_total(&nodes) as u32,
                nodes: searcher.nodes,
            });
        }
        Some(code) => {
            if code.pegs().len() != rules.pegs()
                || code.pegs().iter().any(|&c| c as usize >= rules.colors())
            {
                return Err(TreeError::BadFirstGuess(code.to_string()));
            }
            let guess = game.index(code);
            let parts: Vec<Vec<u16>> = game
                .partition(&all, guess)
                .into_iter()
                .enumerate()
                .filter(|(r, p)| *r as u8 != game.win && !p.is_empty())
                .map(|(_, p)| p)
                .collect();
            // Largest first, so the longest ones start early.
            let mut order: Vec<usize> = (0..parts.len()).collect();
            order.sort_by_key(|&i| (std::cmp::Reverse(parts[i].len()), i));
            let next = AtomicUsize::new(0);
            let done = AtomicUsize::new(0);
            let subtrees: Vec<Mutex<Vec<Node>>> =
                parts.iter().map(|_| Mutex::new(Vec::new())).collect();
            std::thread::scope(|scope| {
                for _ in 0..threads.clamp(1, parts.len()) {
                    scope.spawn(|| {
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&i) = order.get(k) else { break };
                            let mut searcher = Searcher::new(&game);
                            let cost = searcher
                                .cost(&parts[i], u32::MAX)
                                .expect("any budget is enough below u32::MAX");
                            let mut subtree = Vec::new();
                            searcher.extract(&parts[i], &mut subtree);
                            *subtrees[i].lock().expect("no panics while held") = subtree;
                            progress(Progress {
                                done: done.fetch_add(1, Ordering::Relaxed) + 1,
                                parts: parts.len(),
                                size: parts[i].len(),
                                cost,
                                nodes: searcher.nodes,
                            });
                        }
                    });
                }
            });
            let mut subtrees = subtrees
                .into_iter()
                .map(|m| m.into_inner().expect("no panics while held"));
            push_subtree(&game, &all, guess, &mut nodes, &mut |_, tree| {
                let subtree = subtrees.next().expect("one subtree per part");
                graft(tree, subtree)
            });
        }
    }
    Ok(Tree::from_nodes(Arc::new(game), nodes))
}

/// Appends `subtree` (its root first) to `tree`; the index of its root.
fn graft(tree: &mut Vec<Node>, subtree: Vec<Node>) -> u32 {
    let offset = tree.len() as u32;
    tree.extend(subtree.into_iter().map(|mut node| {
        for (_, c) in &mut node.children {
            *c += offset;
        }
        node
    }));
    offset
}

/// Total guesses of the tree whose root is `nodes[0]`: each node whose
/// guess is still possible is one secret's last guess, at its depth.
fn tree_total(nodes: &[Node]) -> u64 {
    fn walk(nodes: &[Node], at: u32, depth: u64) -> u64 {
        let node = &nodes[at as usize];
        let own = if node.wins { depth } else { 0 };
        own + node
            .children
            .iter()
            .map(|&(_, c)| walk(nodes, c, depth + 1))
            .sum::<u64>()
    }
    walk(nodes, 0, 1)
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Node {
    guess: u16,
    /// Whether the guess is one of the codes still possible, so that one
    /// secret ends here.
    wins: bool,
    /// (score number, node), by score.
    children: Vec<(u8, u32)>,
}

/// A codebreaker's whole strategy: the guess for every history it can meet.
pub struct Tree {
    game: Arc<Game>,
    /// The root first.
    nodes: Vec<Node>,
}

impl Tree {
    fn from_nodes(game: Arc<Game>, nodes: Vec<Node>) -> Tree {
        Tree { game, nodes }
    }

    /// The standard game's tree, embedded in the kit.
    pub fn standard() -> Result<&'static Tree, TreeError> {
        static STANDARD: OnceLock<Result<Tree, TreeError>> = OnceLock::new();
        STANDARD
            .get_or_init(|| Tree::from_bytes(STANDARD_BYTES))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub fn rules(&self) -> Rules {
        self.game.rules
    }

    /// Total guesses over every secret.
    pub fn total(&self) -> u64 {
        tree_total(&self.nodes)
    }

    /// The most guesses any secret takes.
    pub fn max_guesses(&self) -> u64 {
        fn depth(nodes: &[Node], at: u32) -> u64 {
            1 + nodes[at as usize]
                .children
                .iter()
                .map(|&(_, c)| depth(nodes, c))
                .max()
                .unwrap_or(0)
        }
        depth(&self.nodes, 0)
    }

    /// The first guess.
    pub fn first_guess(&self) -> &Code {
        self.game.code(self.nodes[0].guess)
    }

    /// The file: header line, then the stored guesses (see the module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let rules = self.game.rules;
        let mut out = format!(
            "{MAGIC} pegs {} colors {} total {}\n",
            rules.pegs(),
            rules.colors(),
            self.total()
        )
        .into_bytes();
        let all: Vec<u16> = (0..self.game.n as u16).collect();
        self.write(0, &all, &mut out);
        out
    }

    fn write(&self, at: u32, set: &[u16], out: &mut Vec<u8>) {
        let node = &self.nodes[at as usize];
        if set.len() > 2 {
            out.extend_from_slice(&node.guess.to_le_bytes());
        }
        let parts = self.game.partition(set, node.guess);
        for &(r, c) in &node.children {
            self.write(c, &parts[r as usize], out);
        }
    }

    /// Reads a file written by [`Tree::to_bytes`], checking it throughout:
    /// an error, never a panic, for a file cut short or damaged.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tree, TreeError> {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(TreeError::Header)?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| TreeError::Header)?;
        let fields = header
            .strip_prefix(MAGIC)
            .ok_or(TreeError::Header)?
            .split_whitespace()
            .collect::<Vec<_>>();
        let number = |name: &str, at: usize| -> Result<u64, TreeError> {
            match fields.get(at..at + 2) {
                Some([n, v]) if *n == name => v.parse().map_err(|_| TreeError::Header),
                _ => Err(TreeError::Header),
            }
        };
        let (pegs, colors, total) = (
            number("pegs", 0)?,
            number("colors", 2)?,
            number("total", 4)?,
        );
        if fields.len() != 6 {
            return Err(TreeError::Header);
        }
        let rules = Rules::new(
            usize::try_from(pegs).map_err(|_| TreeError::Header)?,
            usize::try_from(colors).map_err(|_| TreeError::Header)?,
        )
        .map_err(|_| TreeError::Header)?;
        let game = played_game(rules)?;
        let mut reader = Reader {
            game: &game,
            bytes: &bytes[end + 1..],
            nodes: Vec::new(),
        };
        let all: Vec<u16> = (0..game.n as u16).collect();
        reader.read(&all)?;
        if !reader.bytes.is_empty() {
            return Err(TreeError::Trailing(reader.bytes.len()));
        }
        let nodes = reader.nodes;
        let tree = Tree::from_nodes(game, nodes);
        if tree.total() != total {
            return Err(TreeError::Total {
                found: tree.total(),
                expected: total,
            });
        }
        Ok(tree)
    }
}

/// The game of `rules` for playing, built once per rules: its score table
/// is a million scores for the standard game, and every tree read (each
/// damaged copy a test tries, too) would build it again.
fn played_game(rules: Rules) -> Result<Arc<Game>, TreeError> {
    static GAMES: Mutex<Vec<Arc<Game>>> = Mutex::new(Vec::new());
    let mut games = GAMES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(game) = games.iter().find(|game| game.rules == rules) {
        return Ok(Arc::clone(game));
    }
    let game = Arc::new(Game::new(rules, false)?);
    games.push(Arc::clone(&game));
    Ok(game)
}

struct Reader<'a> {
    game: &'a Game,
    bytes: &'a [u8],
    nodes: Vec<Node>,
}

impl Reader<'_> {
    fn read(&mut self, set: &[u16]) -> Result<u32, TreeError> {
        let game = self.game;
        let guess = if set.len() > 2 {
            let [a, b, rest @ ..] = self.bytes else {
                return Err(TreeError::Truncated);
            };
            let guess = u16::from_le_bytes([*a, *b]);
            self.bytes = rest;
            if guess as usize >= game.n {
                return Err(TreeError::BadCode(guess));
            }
            guess
        } else {
            set[0]
        };
        let parts = game.partition(set, guess);
        if parts.iter().any(|p| p.len() == set.len()) && parts[game.win as usize].is_empty() {
            return Err(TreeError::NoProgress(game.code(guess).to_string()));
        }
        let at = self.nodes.len() as u32;
        self.nodes.push(Node {
            guess,
            wins: !parts[game.win as usize].is_empty(),
            children: Vec::new(),
        });
        for (r, part) in parts.iter().enumerate() {
            if r as u8 != game.win && !part.is_empty() {
                let c = self.read(part)?;
                self.nodes[at as usize].children.push((r as u8, c));
            }
        }
        Ok(at)
    }
}

/// The codebreaker that plays a [`Tree`]: the optimal one with
/// [`OptimalCodebreaker::standard`]. When the game leaves the tree (the
/// board holds guesses that are not the tree's own), it plays on with the
/// best heuristic codebreaker ([`solver::BEST`]) from there.
pub struct OptimalCodebreaker {
    tree: &'static Tree,
    fallback: Option<Codebreaker>,
}

impl OptimalCodebreaker {
    /// The embedded optimal tree of the standard game (4 pegs, 6 colours).
    pub fn standard() -> Result<OptimalCodebreaker, TreeError> {
        Ok(OptimalCodebreaker::new(Tree::standard()?))
    }

    /// A codebreaker playing `tree` (leaked: trees live as long as the program).
    pub fn new(tree: &'static Tree) -> OptimalCodebreaker {
        OptimalCodebreaker {
            tree,
            fallback: None,
        }
    }

    /// The tree's guess after the board's guesses and scores, or why it has
    /// none.
    pub fn next_guess(&self, board: &DecodingBoard) -> Result<Code, LeftTree> {
        let game = &self.tree.game;
        if board.rules != game.rules {
            return Err(LeftTree::OtherRules {
                tree: game.rules,
                game: board.rules,
            });
        }
        let mut at = 0u32;
        for (turn, (guess, score)) in board.guesses.iter().enumerate() {
            let node = &self.tree.nodes[at as usize];
            let expected = game.code(node.guess);
            if guess != expected {
                return Err(LeftTree::OtherGuess {
                    turn: turn + 1,
                    expected: expected.to_string(),
                    found: guess.to_string(),
                });
            }
            let response = game.response_of(*score);
            if response == Some(game.win) {
                return Err(LeftTree::Over(turn + 1));
            }
            let child = response.and_then(|r| {
                node.children
                    .iter()
                    .find(|&&(cr, _)| cr == r)
                    .map(|&(_, c)| c)
            });
            at = child.ok_or(LeftTree::ImpossibleScore {
                turn: turn + 1,
                score: *score,
            })?;
        }
        Ok(game.code(self.tree.nodes[at as usize].guess).clone())
    }
}

impl Strategy<DecodingBoard, Code> for OptimalCodebreaker {
    fn choose(&mut self, board: &DecodingBoard) -> Code {
        match self.next_guess(board) {
            Ok(guess) => guess,
            Err(_) => self
                .fallback
                .get_or_insert_with(|| {
                    Codebreaker::new(board.rules, solver::BEST)
                        .expect("a tree's game is small enough for a codebreaker")
                })
                .choose(board),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mastermind::parse_guess;

    /// Plays every secret with `tree`, checking each score against the
    /// rules; (total guesses, most guesses).
    fn play_all(tree: &'static Tree) -> (usize, usize) {
        let rules = tree.rules();
        let breaker = OptimalCodebreaker::new(tree);
        let (mut total, mut max) = (0, 0);
        for secret in Code::all(rules) {
            let mut board = DecodingBoard {
                rules,
                turns: 64,
                guesses: Vec::new(),
            };
            loop {
                let guess = breaker
                    .next_guess(&board)
                    .unwrap_or_else(|e| panic!("secret {secret}: {e}"));
                let result = score(&secret, &guess);
                board.guesses.push((guess, result));
                if result.black as usize == rules.pegs() {
                    break;
                }
                assert!(board.guesses.len() < 20, "secret {secret}: no end");
            }
            assert_eq!(board.guesses.last().unwrap().0, secret);
            total += board.guesses.len();
            max = max.max(board.guesses.len());
        }
        (total, max)
    }

    #[test]
    fn the_embedded_tree_takes_5625_guesses_at_most_6() {
        let tree = Tree::standard().expect("the embedded tree reads");
        assert_eq!(tree.rules(), Rules::default());
        assert_eq!(tree.first_guess().to_string(), "AABC");
        assert_eq!(play_all(tree), (5625, 6));
        assert_eq!((tree.total(), tree.max_guesses()), (5625, 6));
    }

    #[test]
    fn the_embedded_tree_writes_itself_back_byte_for_byte() {
        assert_eq!(Tree::standard().unwrap().to_bytes(), STANDARD_BYTES);
    }

    /// The whole search, as `boardkit book mastermind-optimal` runs it by
    /// default (about 5 s in the test profile): the embedded file again.
    /// A long test: `.ci/run` runs it (`cargo test --lib --test kit --
    /// --ignored`), the everyday `cargo test` does not.
    #[test]
    #[ignore = "long: the whole optimal search (5 s); .ci/run runs it"]
    fn the_search_finds_the_embedded_tree_again() {
        let tree = search(Rules::default(), None, 1, &|_| {}).unwrap();
        assert_eq!(tree.total(), 5625);
        assert!(
            tree.to_bytes() == STANDARD_BYTES,
            "the search found another tree"
        );
    }

    #[test]
    fn a_damaged_tree_is_an_error_not_a_panic() {
        let bytes = STANDARD_BYTES;
        let body = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        for cut in [0, 5, body - 1, body, body + 1, body + 2, bytes.len() - 1] {
            assert!(
                Tree::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut} of {}",
                bytes.len()
            );
        }
        let mut longer = bytes.to_vec();
        longer.extend_from_slice(&[0, 0]);
        assert_eq!(
            Tree::from_bytes(&longer).err(),
            Some(TreeError::Trailing(2))
        );
        // A code index past the last code.
        let mut bad = bytes.to_vec();
        bad[body..body + 2].copy_from_slice(&5000u16.to_le_bytes());
        assert_eq!(Tree::from_bytes(&bad).err(), Some(TreeError::BadCode(5000)));
        // Guesses of the tree replaced by others: never a panic.
        for at in (body..bytes.len()).step_by(14) {
            for guess in [0u16, 1295] {
                let mut changed = bytes.to_vec();
                changed[at..at + 2].copy_from_slice(&guess.to_le_bytes());
                let _ = Tree::from_bytes(&changed);
            }
        }
        let header = String::from_utf8_lossy(&bytes[..body]).replace("total 5625", "total 5624");
        let mut wrong = header.into_bytes();
        wrong.extend_from_slice(&bytes[body..]);
        assert!(matches!(
            Tree::from_bytes(&wrong),
            Err(TreeError::Total { .. })
        ));
        for header in ["", "hello\n", "boardkit mastermind tree v1 pegs 4\n"] {
            assert_eq!(
                Tree::from_bytes(header.as_bytes()).err(),
                Some(TreeError::Header)
            );
        }
    }

    #[test]
    fn off_the_tree_the_codebreaker_says_why_and_plays_on() {
        let rules = Rules::default();
        let mut breaker = OptimalCodebreaker::standard().unwrap();
        let secret = parse_guess("FEDC", rules).unwrap();
        let first = parse_guess("ABCD", rules).unwrap();
        let board = DecodingBoard {
            rules,
            turns: 10,
            guesses: vec![(first.clone(), score(&secret, &first))],
        };
        assert_eq!(
            breaker.next_guess(&board),
            Err(LeftTree::OtherGuess {
                turn: 1,
                expected: "AABC".into(),
                found: "ABCD".into()
            })
        );
        // Off the tree, the heuristic codebreaker finds the secret.
        let mut board = board;
        while board.guesses.last().unwrap().0 != secret {
            assert!(board.guesses.len() < 10, "{board:?}");
            let guess = breaker.choose(&board);
            let result = score(&secret, &guess);
            board.guesses.push((guess, result));
        }
        // On the tree, its own guesses.
        let board = solver::solve(&mut breaker, rules, &secret, 10);
        assert_eq!(board.guesses[0].0.to_string(), "AABC");
    }

    /// Every strategy, by plain recursion: the fewest guesses for each set
    /// of candidates, over every guess that tells something, memoised by
    /// set and nothing else.
    fn brute_force(game: &Game, set: &[u16], memo: &mut HashMap<Vec<u16>, u32>) -> u32 {
        if set.len() == 1 {
            return 1;
        }
        if let Some(&cost) = memo.get(set) {
            return cost;
        }
        let mut best = u32::MAX;
        for guess in 0..game.n as u16 {
            let mut parts: Vec<Vec<u16>> = vec![Vec::new(); 32];
            for &s in set {
                let sc = score(game.code(s), game.code(guess));
                parts[(sc.black * 5 + sc.white) as usize].push(s);
            }
            let win = game.rules.pegs() * 5;
            if parts[win].is_empty() && parts.iter().any(|p| p.len() == set.len()) {
                continue;
            }
            let mut cost = set.len() as u32;
            for (r, part) in parts.iter().enumerate() {
                if r != win && !part.is_empty() {
                    cost += brute_force(game, part, memo);
                }
            }
            best = best.min(cost);
        }
        memo.insert(set.to_vec(), best);
        best
    }

    #[test]
    fn the_search_matches_a_brute_force_on_small_games() {
        for (pegs, colors) in [(2, 3), (2, 4), (3, 2), (3, 3), (2, 5)] {
            let rules = Rules::new(pegs, colors).unwrap();
            let game = Game::new(rules, false).unwrap();
            let all: Vec<u16> = (0..game.n as u16).collect();
            let expected = brute_force(&game, &all, &mut HashMap::new());
            let tree = search(rules, None, 1, &|_| {}).unwrap();
            assert_eq!(
                tree.total(),
                u64::from(expected),
                "{pegs} pegs, {colors} colours"
            );
            let tree: &'static Tree = Box::leak(Box::new(tree));
            assert_eq!(play_all(tree).0 as u32, expected);
            // The file reads back to the same strategy.
            let again = Tree::from_bytes(&tree.to_bytes()).unwrap();
            assert_eq!(again.nodes, tree.nodes);
        }
    }

    #[test]
    fn a_fixed_first_guess_is_searched_on_threads_with_the_same_result() {
        let rules = Rules::new(3, 4).unwrap();
        let first = parse_guess("AAB", rules).unwrap();
        let one = search(rules, Some(&first), 1, &|_| {}).unwrap();
        let two = search(rules, Some(&first), 2, &|_| {}).unwrap();
        assert_eq!(one.to_bytes(), two.to_bytes());
        assert_eq!(one.first_guess(), &first);
        let any = search(rules, None, 1, &|_| {}).unwrap();
        assert!(one.total() >= any.total());
    }
}
