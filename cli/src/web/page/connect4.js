// Connect four on the page.
"use strict";

(function () {
  const {
    $, api, newGame, move, forget, sleep, setStatus, el, arrowKeys, has, boardStatus, whoStarts,
  } = window.boardkit;

  // --- Connect four -------------------------------------------------------------

  const c4 = { id: null, state: null, busy: false, focus: 0 };
  // One colour per player in every front end: the terminal's and the TUI's.
  const discName = { X: "blue", O: "red" };

  function drawConnect4() {
    const s = c4.state;
    const board = $("connect4-board");
    board.replaceChildren();
    if (!s) return;
    board.style.setProperty("--cols", s.cols);
    board.style.setProperty("--rows", s.rows);
    c4.focus = Math.min(c4.focus, s.cols - 1);
    for (let c = 0; c < s.cols; c++) {
      const discs = s.cells.filter((row) => row[c]).length;
      const full = discs === s.rows;
      const column = el("button", { type: "button", className: "column" });
      column.tabIndex = c === c4.focus ? 0 : -1;
      column.dataset.col = c;
      let label = "Column " + (c + 1) + ", " + (full ? "full" : discs + " disc" + (discs === 1 ? "" : "s"));
      for (let r = 0; r < s.rows; r++) {
        const mark = s.cells[r][c];
        const hole = el("span", { className: "hole" });
        if (mark) hole.classList.add(mark === "X" ? "x" : "o");
        if (has(s.winning_cells, r, c)) hole.classList.add("win");
        if (s.computer_move && s.computer_move[0] === r && s.computer_move[1] === c) {
          hole.classList.add("computer");
          label += ", the computer's last disc on top";
        } else if (s.last_move && s.last_move[0] === r && s.last_move[1] === c) {
          hole.classList.add("last");
        }
        column.append(hole);
      }
      column.append(el("span", { className: "number", textContent: String(c + 1) }));
      column.setAttribute("aria-label", label);
      if (full || s.over) column.setAttribute("aria-disabled", "true");
      column.onclick = () => playConnect4(c);
      column.onfocus = () => { c4.focus = c; };
      board.append(column);
    }
    arrowKeys(board, s.cols);
    board.classList.toggle("over", s.over);
    setStatus("connect4", boardStatus(s, discName, ([, c]) => "column " + (c + 1)));
  }

  async function playConnect4(c) {
    const s = c4.state;
    if (!s || c4.busy) return;
    if (s.over) return setStatus("connect4", s.result + " Start a new game to play again.");
    if (s.cells[0][c]) return setStatus("connect4", "Column " + (c + 1) + " is full: choose another.");
    c4.busy = true;
    if (s.computer) setStatus("connect4", "The computer is thinking…");
    try {
      c4.state = await move(c4.id, { col: c });
      drawConnect4();
      const focused = $("connect4-board").querySelector('[tabindex="0"]');
      if (focused) focused.focus();
    } catch (e) {
      setStatus("connect4", "Not played: " + e.message);
    } finally {
      c4.busy = false;
    }
  }

  $("connect4-setup").onsubmit = async (event) => {
    event.preventDefault();
    const opponent = $("connect4-opponent").value || null;
    const request = {
      game: "connect4",
      cols: Number($("connect4-cols").value),
      rows: Number($("connect4-rows").value),
      opponent,
      computer_first: opponent !== null && $("connect4-first").value === "computer",
    };
    forget(c4.id);
    c4.id = null;
    c4.busy = true;
    setStatus("connect4", request.computer_first ? "The computer is thinking…" : "Starting…");
    try {
      c4.state = await newGame(request);
      c4.id = c4.state.id;
      c4.focus = Math.floor(request.cols / 2);
      drawConnect4();
    } catch (e) {
      c4.state = null;
      drawConnect4();
      setStatus("connect4", "No game: " + e.message);
    } finally {
      c4.busy = false;
    }
  };

  whoStarts("connect4");
  $("connect4-setup").requestSubmit();
})();
